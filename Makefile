PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt requirements-dev.txt setup.py | md5sum | cut -c1-12)

.PHONY: install system-packages lint test demo bench clean

install: system-packages $(STAMP)

system-packages:
	@tools/install-system-packages

$(STAMP): requirements.txt requirements-dev.txt setup.py
	@echo "make install: creating $(VENV) and installing the Python packages of requirements.txt (a few minutes on a fresh machine) ..."
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/pip install --quiet --upgrade pip
	@$(BIN)/pip install --progress-bar off -r requirements.txt | grep -E "^(Collecting|Successfully installed)" | sed -u 's/^/  /' || true
	@$(BIN)/pip install --quiet -r requirements.txt -r requirements-dev.txt
	@echo "make install: installing geofocus itself (editable), so 'scrapy simweb/region/report/train' work from any directory ..."
	@$(BIN)/pip install --quiet --no-deps -e .
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)
	@echo "make install: done"

lint: install
	$(BIN)/ruff check geofocus tests bench tools
	$(BIN)/mypy geofocus

test: install lint
	@# three workers: most tests wait on crawls in subprocesses; one file per worker keeps module fixtures shared
	$(BIN)/python -m pytest -n 3 --dist loadfile

demo: install
	PATH=$(abspath $(BIN)):$$PATH ./bin/demo

bench: install
	$(BIN)/python bench/frontier.py

clean:
	rm -rf $(VENV) runs .pytest_cache
