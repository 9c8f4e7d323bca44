"""What every page must pass: axe-core (vendored, tests/e2e/vendor) with no violation of any
impact; and on a table page, on a phone: no sideways scrolling at 320 px, tap targets of 44 x 44
px, and a visible focus ring. Used by the browser tests; the site never serves axe.

tests/e2e/conftest.py runs axe on every page every browser test opens (after each load and at the
end of the test), and the test fails listing each violation with the page it was on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
# Injected as the body of a function: Playwright calls it through the DevTools protocol, where the
# page's Content Security Policy does not apply, so the contexts need no ``bypass_csp`` and the
# site's own scripts are tested under the policy they get in production.
_INJECT = "() => { if (window.axe) return;\n" + AXE.read_text(encoding="utf-8") + "\n}"

# Every rule axe runs by default (WCAG 2.0-2.2 A and AA, and best practice), whatever its impact.
# No rule is switched off: a rule id goes here only with the reason it cannot apply to Knock.
DISABLED_RULES: dict[str, str] = {}

# Pages whose markup is not Knock's: the API reference is drawn by third-party apps served from
# drf-spectacular-sidecar's static files (Swagger UI's and ReDoc's own DOM, colours and widgets),
# which Knock cannot fix short of forking them; tests/e2e/test_api_docs.py checks they render
# offline under the site's CSP. Knock's own pages link to them from the footer.
EXCLUDED_PATHS: dict[str, str] = {
    "/api/docs/": "Swagger UI, third-party (drf-spectacular-sidecar)",
    "/api/redoc/": "ReDoc, third-party (drf-spectacular-sidecar)",
}

# One run at a time on a page (axe refuses a second while one runs): a test's own check waits for
# the audit its page's load started, and the other way round. Each run waits for running
# animations to end (at most 2 s).
_RUN = """async (disabled) => {
    const rules = Object.fromEntries(disabled.map(id => [id, {enabled: false}]));
    // The page as it rests: a fade still running (the projector's slides) is not its contrast.
    const settled = () => Promise.race([
        Promise.all(document.getAnimations()
            .filter(a => a.effect && a.effect.getTiming().iterations !== Infinity)
            .map(a => a.finished.catch(() => null))),
        new Promise(resolve => setTimeout(resolve, 2000)),
    ]);
    const run = () => settled().then(() => axe.run(document, {resultTypes: ["violations"], rules}));
    const turn = (window.__axeTurn || Promise.resolve()).catch(() => null).then(run);
    window.__axeTurn = turn;
    const r = await turn;
    return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => n.target.join(" "))}));
}"""

# What the page is, for not auditing the same thing twice: its address, its language, and the
# kinds of element on it (tag, id, classes, state): a form shown again with its errors, or a
# panel opened, brings new kinds; more rows of a table do not.
SHAPE = """() => {
    const kinds = new Set();
    const states = ["role", "hidden", "open", "disabled", "aria-hidden", "aria-expanded",
                    "aria-selected", "aria-invalid", "aria-current"];
    for (const el of document.querySelectorAll("*")) {
        let kind = el.localName;
        if (el.id) kind += "#" + el.id.replace(/\\d+/g, "0");
        for (const c of el.classList) kind += "." + c;
        for (const a of states) {
            if (el.hasAttribute(a)) kind += "[" + a + "=" + el.getAttribute(a) + "]";
        }
        kinds.add(kind);
    }
    return {path: location.pathname, lang: document.documentElement.lang, kinds: [...kinds]};
}"""


def page_key(path: str) -> str:
    """The address with numbers as 0 and long tokens as *: one page kind, whatever the row."""
    return "/".join(
        "*" if len(part) >= 16 else re.sub(r"\d+", "0", part) for part in path.split("/")
    )


def axe_results(page: Any) -> list[dict[str, Any]]:
    """Every axe violation of the page as it is now: rule id, impact, help, offending elements."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(_INJECT)
    return list(page.evaluate(_RUN, list(DISABLED_RULES)))


def describe(violation: dict[str, Any]) -> str:
    nodes = violation["nodes"]
    more = f" and {len(nodes) - 3} more" if len(nodes) > 3 else ""
    return (
        f"{violation['id']} ({violation['impact']}, {len(nodes)}x): {violation['help']}: "
        f"{', '.join(nodes[:3])}{more}"
    )


def axe_violations(page: Any) -> list[str]:
    """Every axe violation of the page as it is now, whatever its impact, one line each: rule,
    impact, how many elements, the first offending elements."""
    return [describe(v) for v in axe_results(page)]


# What a thumb aims at: links, buttons, fields, and the labels that wrap a radio or checkbox.
TARGETS = (
    "a[href], button, select, textarea, summary, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox]), "
    "label:has(> input[type=radio]), label:has(> input[type=checkbox])"
)


def overflow(page: Any) -> int:
    """How many px the page scrolls sideways (0 when it fits)."""
    return int(
        page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
    )


def small_targets(page: Any) -> list[str]:
    """Visible tap targets smaller than 44 x 44 px (a radio's or checkbox's label counts for it)."""
    return list(
        page.evaluate(
            """(selector) => Array.from(document.querySelectorAll(selector)).filter(el => {
                const r = el.getBoundingClientRect();
                const style = getComputedStyle(el);
                if (!r.width || !r.height || style.visibility === "hidden") return false;
                return r.width < 43.5 || r.height < 43.5;
            }).map(el => el.tagName.toLowerCase() + " '" + (el.textContent || el.name || "")
                .trim().slice(0, 30) + "' " + Math.round(el.getBoundingClientRect().width) + "x"
                + Math.round(el.getBoundingClientRect().height))""",
            TARGETS,
        )
    )


def focus_ring(page: Any, selector: str) -> float:
    """The outline width (px) of ``selector`` focused from the keyboard."""
    page.locator(selector).first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    return float(
        page.evaluate(
            """() => { const s = getComputedStyle(document.activeElement);
                 return s.outlineStyle === "none" ? 0 : parseFloat(s.outlineWidth); }"""
        )
    )
