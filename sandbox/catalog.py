"""The sites the demo data is built around: well-known domains with realistic ratings, and the sites
the demo keys own, each with fixed facts so every owner screen shows its situation.

Plain tables; ``sandbox.data`` turns them (and every other domain) into ratings and profiles.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.accounts import OWNED_SITES


@dataclass(frozen=True)
class KnownSite:
    """A well-known domain with a realistic, fixed rating, so demo screens look believable."""

    dr: int
    title: str
    category: str


@dataclass(frozen=True)
class DemoSite:
    """A site some demo key owns; fixed facts so the app's owner screens show each situation."""

    dr: int
    title: str
    category: str
    verified: bool
    #: Words that make the site appear in the SERPs of keywords containing them.
    topics: tuple[str, ...]
    #: What the site ranks for, the seeds of its keyword suggestions (one-word heads included, so
    #: the service's head filter has something to remove).
    themes: tuple[str, ...]
    #: Search Console connected: tracked keywords then carry impressions and gscPosition.
    gsc_connected: bool = False
    #: The traffic provider has no value for this site (shows the "missing signal" path).
    traffic_missing: bool = False
    #: DR points the site climbs in a year (``sandbox.drift.climb``), and how many days its yearly
    #: climb and setback run ahead of the other sites': a site that earns links faster climbs more, and
    #: the sites' setbacks fall in different seasons, so on most days one of them is clearly gaining.
    climb: float = 7.0
    climb_lead: int = 0


KNOWN_SITES: dict[str, KnownSite] = {
    "google.com": KnownSite(98, "Google", "other"),
    "youtube.com": KnownSite(98, "YouTube", "news-media"),
    "linkedin.com": KnownSite(98, "LinkedIn", "other"),
    "wordpress.org": KnownSite(97, "Blog Tool, Publishing Platform, and CMS – WordPress.org", "saas"),
    "apple.com": KnownSite(97, "Apple", "ecommerce"),
    "wikipedia.org": KnownSite(96, "Wikipedia, the free encyclopedia", "education"),
    "github.com": KnownSite(96, "GitHub · Build and ship software on a single platform", "developer-tools"),
    "amazon.com": KnownSite(96, "Amazon.com. Spend less. Smile more.", "ecommerce"),
    "microsoft.com": KnownSite(96, "Microsoft – AI, Cloud, Productivity, Computing, Gaming & Apps", "saas"),
    "facebook.com": KnownSite(96, "Facebook - log in or sign up", "other"),
    "instagram.com": KnownSite(96, "Instagram", "other"),
    "twitter.com": KnownSite(95, "X. It's what's happening", "news-media"),
    "x.com": KnownSite(94, "X. It's what's happening", "news-media"),
    "pinterest.com": KnownSite(94, "Pinterest", "other"),
    "tiktok.com": KnownSite(95, "TikTok - Make Your Day", "other"),
    "yahoo.com": KnownSite(93, "Yahoo | Mail, Weather, Search, Politics, News, Finance", "news-media"),
    "bing.com": KnownSite(93, "Bing", "other"),
    "bbc.com": KnownSite(95, "BBC Home - Breaking News, World News, US News, Sports", "news-media"),
    "cnn.com": KnownSite(94, "Breaking News, Latest News and Videos | CNN", "news-media"),
    "netflix.com": KnownSite(92, "Netflix - Watch TV Shows Online, Watch Movies Online", "other"),
    "spotify.com": KnownSite(93, "Spotify - Web Player: Music for everyone", "other"),
    "dropbox.com": KnownSite(94, "Dropbox", "saas"),
    "slack.com": KnownSite(92, "Slack is your productivity platform", "saas"),
    "airbnb.com": KnownSite(92, "Airbnb | Vacation rentals, cabins, beach houses, & more", "travel"),
    "python.org": KnownSite(92, "Welcome to Python.org", "developer-tools"),
    "openai.com": KnownSite(92, "OpenAI", "saas"),
    "reddit.com": KnownSite(95, "Reddit - Dive into anything", "news-media"),
    "medium.com": KnownSite(95, "Medium – Where good ideas find you", "news-media"),
    "cloudflare.com": KnownSite(95, "Cloudflare - The Web Performance & Security Company", "developer-tools"),
    "nytimes.com": KnownSite(94, "The New York Times - Breaking News, US News, World News", "news-media"),
    "bbc.co.uk": KnownSite(94, "BBC - Home", "news-media"),
    "theguardian.com": KnownSite(94, "News, sport and opinion from the Guardian", "news-media"),
    "forbes.com": KnownSite(94, "Forbes", "finance"),
    "shopify.com": KnownSite(94, "Shopify: The All-in-One Commerce Platform for Businesses", "ecommerce"),
    "wix.com": KnownSite(93, "Website Builder - Create a Free Website Today | Wix.com", "saas"),
    "stackoverflow.com": KnownSite(93, "Stack Overflow - Where Developers Learn & Share", "developer-tools"),
    "techcrunch.com": KnownSite(93, "TechCrunch | Startup and Technology News", "news-media"),
    "canva.com": KnownSite(93, "Canva: Visual Suite for Everyone", "saas"),
    "hubspot.com": KnownSite(93, "HubSpot | Software & Tools for your Business", "marketing"),
    "stripe.com": KnownSite(92, "Stripe | Financial Infrastructure to Grow Your Revenue", "finance"),
    "mailchimp.com": KnownSite(92, "Marketing, Automation & Email Platform | Mailchimp", "marketing"),
    "producthunt.com": KnownSite(91, "Product Hunt – The best new products in tech", "news-media"),
    "notion.so": KnownSite(91, "Notion – The all-in-one workspace", "saas"),
    "figma.com": KnownSite(91, "Figma: The Collaborative Interface Design Tool", "saas"),
    "zapier.com": KnownSite(91, "Zapier: Automate AI Workflows, Agents, and Apps", "saas"),
    "vercel.com": KnownSite(91, "Vercel: Build and deploy the best web experiences", "developer-tools"),
    "semrush.com": KnownSite(91, "Semrush: Data-Driven Marketing Tools to Grow Your Business", "marketing"),
    "ahrefs.com": KnownSite(91, "Ahrefs - SEO Tools & Resources To Grow Your Search Traffic", "marketing"),
    "moz.com": KnownSite(91, "Moz - SEO Software for Smarter Marketing", "marketing"),
}

DEMO_SITES: dict[str, DemoSite] = {
    "example.com": DemoSite(
        dr=41,
        title="Example Analytics — privacy-first web analytics",
        category="saas",
        verified=True,
        topics=("analytics", "tracking"),
        themes=("web analytics", "privacy analytics", "website tracking", "analytics", "heatmaps"),
        gsc_connected=True,
    ),
    "acme-widgets.com": DemoSite(
        dr=27,
        title="Acme Widgets — industrial widgets and parts",
        category="ecommerce",
        verified=True,
        topics=("widget",),
        themes=("industrial widgets", "steel widgets", "widget parts", "widgets", "fasteners"),
        climb=9.0,
        climb_lead=50,
    ),
    "northwind-coffee.com": DemoSite(
        dr=18,
        title="Northwind Coffee Roasters",
        category="local-business",
        verified=False,
        topics=("coffee",),
        themes=("coffee beans", "espresso", "coffee subscription", "cold brew", "coffee grinder"),
        traffic_missing=True,
    ),
    "tinyblog.net": DemoSite(
        dr=6,
        title="Tiny Blog — notes on small-scale living",
        category="other",
        verified=False,
        topics=("tiny", "minimalist", "small space"),
        themes=("tiny house", "minimalist living", "decluttering", "small space storage", "minimalism"),
        gsc_connected=True,
    ),
}
assert set(DEMO_SITES) == set(OWNED_SITES), "every owned site needs demo facts"
