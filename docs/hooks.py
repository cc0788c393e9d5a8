"""mkdocs hook (mkdocs.yml): the home page is README.md, the source of truth.

docs/index.md holds a placeholder that is replaced by the README at build time, with the
README's links into docs/ made relative to docs/.
"""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
PLACEHOLDER = "<!-- README.md -->"


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri != "index.md":
        return markdown
    readme = README.read_text(encoding="utf-8")
    readme = re.sub(r"\]\(docs/", "](", readme)
    return markdown.replace(PLACEHOLDER, readme)


def on_serve(server, config, builder):
    server.watch(str(README))
    return server
