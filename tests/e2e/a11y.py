"""What every table page must pass on a phone: axe-core (vendored, tests/e2e/vendor) with no
serious or critical violation, no sideways scrolling at 320 px, tap targets of 44 x 44 px, and
a visible focus ring. Used by the browser tests; the site never serves axe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe.min.js"

# What a thumb aims at: links, buttons, fields, and the labels that wrap a radio or checkbox.
TARGETS = (
    "a[href], button, select, textarea, summary, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox]), "
    "label:has(> input[type=radio]), label:has(> input[type=checkbox])"
)


def axe_violations(page: Any) -> list[str]:
    """The serious and critical axe violations of the page as it is now (WCAG 2.x A/AA and best
    practice), one line each: rule, impact, the first offending elements."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE))  # the context bypasses the site's CSP for this
    results = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ["violations"]});
            return r.violations.map(v => ({id: v.id, impact: v.impact,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
        }"""
    )
    return [
        f"{v['id']} ({v['impact']}): {', '.join(v['nodes'])}"
        for v in results
        if v["impact"] in ("serious", "critical")
    ]


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
