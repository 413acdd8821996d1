# geofocus: one image for workers, scrapyd and simweb (see docker-compose.yml, docs/scaleout.md).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY scrapy.cfg setup.py ./
COPY geofocus ./geofocus
COPY docker/scrapyd.conf /etc/scrapyd/scrapyd.conf
RUN pip install --no-deps . && useradd --create-home geofocus && mkdir -p /data /shared \
    && chown geofocus /data /shared
USER geofocus
CMD ["scrapy", "list"]
