"""The public, unauthenticated pages the API links to: badges, site pages, the OG card, pricing.

The API's ``links``, snippets and gate bodies point here, so a link the app shows can be clicked
and an embed snippet renders even with no internet.
"""

from __future__ import annotations

from html import escape

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from sandbox.data import domain_for_slug, site_profile, slug_of
from sandbox.guard import base_url_of

_SVG_HEADERS = {"Cache-Control": "no-cache"}
_THEMES = {
    "default": ("#1f2937", "#16a34a", "#ffffff"),
    "dark": ("#0b0f14", "#22c55e", "#e5e7eb"),
    "truedr": ("#1f2937", "#2563eb", "#ffffff"),
    "compact": ("#1f2937", "#16a34a", "#ffffff"),
}


def _badge_svg(domain: str, style: str) -> str:
    p = site_profile(domain)
    left_bg, right_bg, fg = _THEMES.get(style, _THEMES["default"])
    label, value = ("TrueDR", p.true_dr) if style == "truedr" else ("DR", p.dr)
    width = 110 if style == "compact" else 160
    split = width - 44
    name = escape(domain)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="40" role="img" '
        f'aria-label="{label} {value} for {name}">'
        f"<title>{label} {value} — {name} on VerifiedDR</title>"
        f'<rect width="{split}" height="40" fill="{left_bg}"/>'
        f'<rect x="{split}" width="44" height="40" fill="{right_bg}"/>'
        f'<text x="10" y="25" fill="{fg}" font-family="Verdana,sans-serif" font-size="12">'
        f"VerifiedDR {label}</text>"
        f'<text x="{split + 22}" y="26" fill="#fff" font-family="Verdana,sans-serif" font-size="15" '
        f'font-weight="bold" text-anchor="middle">{value}</text></svg>'
    )


def _og_svg(domain: str) -> str:
    p = site_profile(domain)
    name = escape(domain)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">'
        '<rect width="1200" height="630" fill="#0b0f14"/>'
        f'<text x="80" y="200" fill="#e5e7eb" font-family="Verdana,sans-serif" font-size="64">{name}</text>'
        f'<text x="80" y="360" fill="#22c55e" font-family="Verdana,sans-serif" font-size="120">'
        f"DR {p.dr}</text>"
        f'<text x="80" y="480" fill="#60a5fa" font-family="Verdana,sans-serif" font-size="72">'
        f"TrueDR {p.true_dr}</text></svg>"
    )


def _site_or_404(request: Request) -> str | Response:
    domain = domain_for_slug(request.path_params["slug"])
    if domain is None:
        return PlainTextResponse("Unknown site.", status_code=404)
    return domain


async def badge(request: Request) -> Response:
    site = _site_or_404(request)
    if isinstance(site, Response):
        return site
    style = request.query_params.get("style", "default")
    return Response(_badge_svg(site, style), media_type="image/svg+xml", headers=_SVG_HEADERS)


async def og_image(request: Request) -> Response:
    site = _site_or_404(request)
    if isinstance(site, Response):
        return site
    return Response(_og_svg(site), media_type="image/svg+xml", headers=_SVG_HEADERS)


async def site_page(request: Request) -> Response:
    site = _site_or_404(request)
    if isinstance(site, Response):
        return site
    p = site_profile(site)
    badge_url = f"{base_url_of(request)}/badge/{slug_of(site)}.svg"
    title = escape(p.title or site)
    return HTMLResponse(
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title} · VerifiedDR sandbox</title>"
        f"</head><body><h1>{escape(site)}</h1><p>{title}</p>"
        f"<p>DR {p.dr} · TrueDR {p.true_dr} · trust {p.trust_score}</p>"
        f"<img src='{escape(badge_url, quote=True)}' alt='DR badge'>"
        "<p><small>Demo data from the local sandbox.</small></p></body></html>"
    )


async def pricing(request: Request) -> Response:
    return HTMLResponse(
        "<!doctype html><html><head><meta charset='utf-8'><title>Pricing · VerifiedDR sandbox</title>"
        "</head><body><h1>Plans</h1><p>The sandbox's free key (vdr_free) has no growth program; "
        "the demo key (vdr_demo) has one. Keyword research needs the growth program.</p></body></html>"
    )


async def root(request: Request) -> Response:
    return JSONResponse(
        {"ok": True, "service": "VerifiedDR v1 sandbox", "api": f"{base_url_of(request)}/api/v1"}
    )


def page_routes() -> list[Route]:
    return [
        Route("/", root),
        Route("/badge/{slug}.svg", badge),
        Route("/og/{slug}.svg", og_image),
        Route("/site/{slug}", site_page),
        Route("/pricing", pricing),
    ]
