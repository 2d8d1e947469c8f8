"""The embed client's TLS: an ``https://`` proxy's certificate is verified; an ``http://`` proxy loads no CA
bundle, and its TLS context could only fail closed (real TLS server on 127.0.0.1, a self-signed certificate)."""

from __future__ import annotations

import asyncio
import http.client
import json
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from amicus_desktop.core.errors import AmicusError
from amicus_desktop.embedding import EmbedClient
from amicus_desktop.embedding.client import tls_context
from tests.support.scripted_proxy import ScriptedProxy


@pytest.fixture
def certificate(tmp_path: Path) -> Path:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key),
                    "-out", str(cert)], check=True, capture_output=True)
    return tmp_path


@pytest.fixture
def tls_proxy(certificate: Path) -> Iterator[ScriptedProxy]:
    proxy = ScriptedProxy(dims=8, model="m-1")
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(certificate / "cert.pem", certificate / "key.pem")
    proxy._server.socket = server.wrap_socket(proxy._server.socket, server_side=True)
    with proxy:
        yield proxy


def _embed(url: str) -> object:
    async def go() -> object:
        client = EmbedClient(url, retry_delay=0.05)
        try:
            return await client.embed("grace")
        finally:
            await client.aclose()
    return asyncio.run(go())


def test_an_https_proxy_with_an_untrusted_certificate_is_refused(tls_proxy: ScriptedProxy,
                                                                certificate: Path) -> None:
    https = tls_proxy.url.replace("http://", "https://")
    # the server answers a client that trusts its certificate ...
    trusting = ssl.create_default_context(cafile=str(certificate / "cert.pem"))
    con = http.client.HTTPSConnection("127.0.0.1", tls_proxy.port, context=trusting, timeout=5)
    con.request("POST", "/ai/embed", body=json.dumps({"input": ["grace"]}),
                headers={"Content-Type": "application/json"})
    assert con.getresponse().status == 200
    con.close()
    embeds = tls_proxy.embed_requests
    # ... and the embed client, which does not trust it, gets no vector from it
    with pytest.raises(AmicusError):
        _embed(https)
    assert tls_proxy.embed_requests == embeds


def test_the_http_context_trusts_no_one_and_fails_closed(tls_proxy: ScriptedProxy) -> None:
    ctx = tls_context("http://127.0.0.1:8761")
    assert isinstance(ctx, ssl.SSLContext)
    assert ctx.verify_mode is ssl.CERT_REQUIRED and ctx.check_hostname
    assert ctx.cert_store_stats()["x509_ca"] == 0  # no CA bundle loaded
    con = http.client.HTTPSConnection("127.0.0.1", tls_proxy.port, context=ctx, timeout=5)
    with pytest.raises(ssl.SSLCertVerificationError):
        con.request("GET", "/health")
    con.close()


def test_an_https_proxy_gets_the_default_verification() -> None:
    assert tls_context("https://proxy.example") is True
    assert tls_context("HTTPS://proxy.example") is True
