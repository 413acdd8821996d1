PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt | md5sum | cut -c1-12)

.PHONY: install system-packages test demo bench clean

install: system-packages $(STAMP)

system-packages:
	@tools/install-system-packages

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

test: install
	$(BIN)/python -m pytest

demo: install
	PATH=$(abspath $(BIN)):$$PATH ./bin/demo

bench: install
	$(BIN)/python bench/frontier.py

clean:
	rm -rf $(VENV) runs .pytest_cache
