"""Word lists for plausible, made-up names, titles and keywords.

Every generated domain is built from these plus endings the Public Suffix List knows, so each one
passes ``client.inputs.normalise_domain`` unchanged and can be asked about in its own right.
"""

from __future__ import annotations

ADJECTIVES: tuple[str, ...] = tuple(
    """bright quiet rapid clever green urban little open daily north silver honest modern simple
    golden smart local happy bold true blue wild prime fresh lucky solid clear swift cosy sharp""".split()
)

NOUNS: tuple[str, ...] = tuple(
    """pixel harbor maple rocket garden ledger compass studio journal forge lantern orbit canvas
    beacon summit atlas meadow anchor signal pepper cabin river market fox owl hive spark thread
    kettle bridge notebook pantry trail workshop guide review insider lab hub digest""".split()
)

#: ``com`` repeats so that most made-up sites are .com, as on the real web.
TLDS: tuple[str, ...] = tuple("com com com com com net org io co blog dev co.uk de info".split())

TAGLINES: tuple[str, ...] = (
    "Practical guides and honest reviews",
    "Ideas, tools and stories for makers",
    "News and analysis you can trust",
    "Tips for small teams that ship",
    "Independent reviews since 2014",
    "Everything about doing it yourself",
    "Field notes from the industry",
    "Tools and templates for busy people",
)

ANCHORS: tuple[str, ...] = (
    "read more",
    "this guide",
    "source",
    "homepage",
    "their review",
    "full article",
    "official site",
    "case study",
    "recommended tool",
    "see the list",
    "learn more",
)

#: Category → topic words, so keyword suggestions sound like the site they are for.
TOPICS: dict[str, tuple[str, ...]] = {
    "saas": ("software", "dashboard", "crm", "automation", "analytics", "invoicing", "scheduling"),
    "ecommerce": ("shoes", "jackets", "gift ideas", "kitchen tools", "backpacks", "phone cases"),
    "marketing": ("seo", "link building", "content strategy", "email marketing", "social media"),
    "finance": ("budgeting", "credit cards", "savings account", "index funds", "mortgage"),
    "health": ("running shoes", "meal prep", "sleep tracking", "yoga", "protein powder"),
    "travel": ("city breaks", "travel insurance", "hiking trails", "cheap flights", "road trip"),
    "education": ("online courses", "study tips", "math worksheets", "language learning"),
    "news-media": ("election results", "tech news", "climate report", "market update"),
    "developer-tools": ("api testing", "code review", "ci pipeline", "log monitoring", "database"),
    "agency": ("web design", "seo audit", "brand strategy", "ppc management"),
    "local-business": ("coffee shop", "bakery", "plumber", "dentist", "hair salon"),
    "other": ("productivity", "side projects", "home office", "minimalism", "gardening"),
}

#: Query shapes around a topic; a bare ``{t}`` is a head term (one word for some topics).
MODIFIERS: tuple[str, ...] = (
    "{t}",
    "best {t}",
    "{t} for beginners",
    "how to choose {t}",
    "{t} alternatives",
    "cheap {t}",
    "{t} reviews",
    "{t} guide",
    "free {t}",
    "{t} for small business",
    "{t} ideas",
    "top {t} 2025",
    "{t} checklist",
    "{t} pricing",
    "{t} tips",
    "what is {t}",
)
