"""The page's figures, stored by HTML id and serialised once at the end of rendering."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio
from markupsafe import Markup


@dataclass
class Figures:
    """Figures by HTML id, serialised once at the end."""

    items: dict[str, Any] = field(default_factory=dict)
    template: dict[str, Any] | None = None

    def add(self, prefix: str, figure: go.Figure | None) -> dict[str, str] | None:
        """Store a figure; its title moves out of the plot into an HTML caption, which
        wraps on narrow screens and never collides with plotly's mode bar."""
        if figure is None:
            return None
        key = "fig-" + "".join(c if c.isalnum() else "-" for c in prefix).strip("-") + f"-{len(self.items)}"
        title = figure.layout.title.text or ""
        figure.update_layout(title=None)
        drawn = figure.to_plotly_json()
        # Every figure has the same template (10 kB of JSON): stored once, put back by the page's script.
        self.template = drawn["layout"].pop("template", None) or self.template
        self.items[key] = {"title": title, **drawn}
        return {"id": key, "title": title}

    def script_json(self) -> Markup:
        # "</" would end the <script> element early; JSON allows the escaped form.
        payload = {"template": self.template, "figures": self.items}
        return Markup(pio.json.to_json_plotly(payload).replace("</", "<\\/"))
