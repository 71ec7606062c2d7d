# Huzzah in a container. Build: docker build -t huzzah .   Run: see deploy/README.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules ./rules
COPY migrations ./migrations
RUN pip install '.[postgres]'

# A dedicated user with no shell and no password; it owns only the data volume.
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin huzzah \
    && mkdir -p /data \
    && chown huzzah:huzzah /data

USER huzzah
WORKDIR /data
VOLUME ["/data"]
# SQLite on the volume by default; compose.yaml points DATABASE_URL at PostgreSQL instead.
ENV DATABASE_URL=sqlite:////data/huzzah.db

# Prometheus metrics at :9108/metrics; /health answers 200 only while the bot is connected to
# Discord and its database answers, which is the container's health.
EXPOSE 9108
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["huzzah", "health", "127.0.0.1:9108"]

# `docker stop` sends SIGTERM: the commands in progress finish and the database is closed.
STOPSIGNAL SIGTERM
CMD ["huzzah", "run", "--metrics", "0.0.0.0:9108"]
