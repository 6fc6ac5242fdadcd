"""AI visibility: tracked questions per site, and what the assistants answered when they were asked.

Each run asks every tracked question on ChatGPT, Perplexity and Google AI Mode; whether the site is
mentioned, which brands and pages are cited, all follow deterministically from the site, the question,
the platform and the run's number, so the same history comes back on every machine. Questions added
after a run are listed but only answered by the next run. Not thread-safe on its own
(``SandboxState`` calls it under its lock).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache

from client.visibility_models import (
    AI_PLATFORMS,
    AiAnswer,
    AiPrompt,
    AiPrompts,
    AiRun,
    AiSnapshot,
    AiVisibility,
    BrandMention,
    PageCount,
    PageOutreach,
    PlatformScore,
    SourceCount,
)
from sandbox.data import (
    KNOWN_SITES,
    SANDBOX_EPOCH,
    dr_for,
    is_listed,
    made_up_domain,
    site_name,
    site_profile,
)
from sandbox.hashing import rng_for
from sandbox.problems import bad_request, conflict, not_found
from sandbox.tracked import SEED_KEYWORDS
from sandbox.words import TOPICS

#: Tracked questions per site.
MAX_PROMPTS = 30
#: Runs are weekly: a site can be asked again this long after its last run.
RUN_INTERVAL = timedelta(days=7)
#: Seeded history: this many weekly runs before the sandbox's "now".
SEEDED_RUNS = 3
FIRST_PROMPT_ID = 101
TOP_PAGES = 10
#: Sites the assistants cite for almost any question.
COMMON_SOURCES: tuple[str, ...] = ("reddit.com", "wikipedia.org", "medium.com", "youtube.com", "forbes.com")
#: Perplexity cites the open web most readily, Google AI Mode leans on its own results.
PLATFORM_BIAS: dict[str, float] = {"ChatGPT": 0.0, "Perplexity": 0.12, "Google AI Mode": -0.06}
_TEMPLATES = (
    "What is the best {kw}?",
    "Which {kw} do you recommend?",
    "How do I choose a {kw}?",
    "What are good options for {kw}?",
)
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Prompt:
    id: str
    prompt: str
    source: str
    location: str | None = None

    def as_model(self) -> AiPrompt:
        return AiPrompt(id=self.id, prompt=self.prompt, source=self.source, location=self.location)


@dataclass(frozen=True)
class Run:
    at: datetime
    number: int
    prompts: tuple[Prompt, ...]


def question_for(keyword: str) -> str:
    """A natural question about a keyword, within the service's 8–140 characters."""
    template = _TEMPLATES[rng_for("ai-template", keyword.casefold()).randrange(len(_TEMPLATES))]
    return template.format(kw=keyword.strip())[:140]


@lru_cache(maxsize=256)
def competitors(site: str) -> tuple[str, ...]:
    """Brands the assistants name next to the site: famous ones of its category and look-alikes."""
    category = site_profile(site).category
    famous = sorted(d for d, k in KNOWN_SITES.items() if k.category == category)[:3]
    r = rng_for("ai-competitors", site)
    made_up: list[str] = []
    while len(made_up) < 6 - len(famous):
        name = made_up_domain(r)
        if name != site and name not in made_up:
            made_up.append(name)
    return (*famous, *made_up)


def _page(domain: str, prompt: str) -> str:
    words = _WORD.findall(prompt.casefold())[:5]
    return f"https://{domain}/{'-'.join(words) or 'guide'}"


def _answer(site: str, prompt: Prompt, platform: str, number: int) -> AiAnswer:
    r = rng_for("ai-answer", site, prompt.prompt.casefold(), platform, number)
    rivals = competitors(site)
    mentioned = r.random() < 0.12 + dr_for(site) / 120 + number * 0.03 + PLATFORM_BIAS.get(platform, 0)
    brands = [site_name(d) for d in r.sample(rivals, k=r.randint(2, 4))]
    position = None
    if mentioned:
        position = r.randint(1, len(brands) + 1)
        brands.insert(position - 1, site_name(site))
    domains = r.sample((*COMMON_SOURCES, *rivals), k=r.randint(2, 4))
    if mentioned and r.random() < 0.6:
        domains.append(site)
    return AiAnswer(
        prompt_id=prompt.id,
        prompt=prompt.prompt,
        platform=platform,
        mentioned=mentioned,
        position=position,
        brands=brands,
        cited_domains=domains,
        cited_pages=[_page(d, prompt.prompt) for d in domains],
    )


def _share(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def snapshot(site: str, run: Run) -> tuple[AiSnapshot, list[PageOutreach]]:
    """What one run found, and the cited pages on other sites worth reaching out to."""
    answers = [_answer(site, p, platform, run.number) for p in run.prompts for platform in AI_PLATFORMS]
    total, hits = len(answers), sum(1 for a in answers if a.mentioned)
    platforms = []
    for platform in AI_PLATFORMS:
        mine = [a for a in answers if a.platform == platform]
        seen = sum(1 for a in mine if a.mentioned)
        platforms.append(
            PlatformScore(platform=platform, score=_share(seen, len(mine)), answers=len(mine), mentioned=seen)
        )
    names = {site_name(d): d for d in (*competitors(site), site)}
    brand_counts = Counter(b for a in answers for b in a.brands)
    brands = [
        BrandMention(
            name=n, domain=names.get(n), mentions=c, share=_share(c, total), own=names.get(n) == site
        )
        for n, c in sorted(brand_counts.items(), key=lambda item: (-item[1], item[0]))
    ]
    source_counts = Counter(d for a in answers for d in a.cited_domains)
    page_counts = Counter(p for a in answers for p in a.cited_pages)
    ranked_pages = sorted(page_counts.items(), key=lambda item: (-item[1], item[0]))
    outreach = [
        PageOutreach(
            url=url,
            domain=domain,
            dr=dr_for(domain),
            true_dr=site_profile(domain).true_dr if is_listed(domain) else None,
            citations=count,
        )
        for url, count in ranked_pages
        if (domain := url.split("/")[2]) != site
    ][:TOP_PAGES]
    snap = AiSnapshot(
        score=_share(hits, total),
        total_answers=total,
        mentioned_answers=hits,
        by_platform=platforms,
        answers=answers,
        brands=brands,
        sources=[
            SourceCount(domain=d, citations=c)
            for d, c in sorted(source_counts.items(), key=lambda item: (-item[1], item[0]))
        ],
        top_pages=[PageCount(url=u, citations=c) for u, c in ranked_pages[:TOP_PAGES]],
        ran_at=run.at,
    )
    return snap, outreach


@dataclass
class VisibilityStore:
    """Tracked questions and runs per site."""

    prompts: dict[str, list[Prompt]] = field(default_factory=dict)
    runs: dict[str, list[Run]] = field(default_factory=dict)
    next_id: int = FIRST_PROMPT_ID

    def seed(self) -> None:
        """Questions from each seeded site's keywords and a few weekly runs before the sandbox's now."""
        self.prompts, self.runs, self.next_id = {}, {}, FIRST_PROMPT_ID
        for site, keywords in SEED_KEYWORDS.items():
            self.prompts[site] = [self._new(question_for(k), "keywords") for k in keywords]
            self.runs[site] = [
                Run(
                    at=SANDBOX_EPOCH - RUN_INTERVAL * (SEEDED_RUNS - i),
                    number=i,
                    prompts=tuple(self.prompts[site]),
                )
                for i in range(SEEDED_RUNS)
            ]

    def _new(self, text: str, source: str, location: str | None = None) -> Prompt:
        prompt = Prompt(id=f"prm_{self.next_id}", prompt=text, source=source, location=location)
        self.next_id += 1
        return prompt

    def _prompts(self, site: str) -> list[Prompt]:
        return self.prompts.setdefault(site, [])

    def listing(self, site: str, status: str | None = None) -> AiPrompts:
        return AiPrompts(prompts=[p.as_model() for p in self._prompts(site)], status=status)

    def add(self, site: str, text: str, location: str | None) -> AiPrompts:
        """Track one more question: 400 for a duplicate or past the per-site limit."""
        prompts = self._prompts(site)
        if any(p.prompt.casefold() == text.casefold() for p in prompts):
            raise bad_request("That question is already tracked for this site.")
        if len(prompts) >= MAX_PROMPTS:
            raise bad_request(f"This site already tracks {MAX_PROMPTS} questions, the limit.")
        prompts.append(self._new(text, "manual", location))
        return self.listing(site)

    def remove(self, site: str, prompt_id: str) -> AiPrompts:
        prompts = self._prompts(site)
        match = next((p for p in prompts if p.id == prompt_id), None)
        if match is None:
            raise not_found(f"No tracked question with id {prompt_id} on this site.")
        prompts.remove(match)
        return self.listing(site)

    def reset(self, site: str, keywords: Iterable[str]) -> AiPrompts:
        """Replace the questions with ones from the site's keywords (its topics when it tracks none)."""
        words = list(dict.fromkeys(keywords)) or list(TOPICS.get(site_profile(site).category, ()))[:5]
        self.prompts[site] = [self._new(question_for(k), "keywords") for k in words[:MAX_PROMPTS]]
        return self.listing(site)

    def run(self, site: str, now: datetime) -> AiPrompts:
        """Ask every tracked question now: once a week per site (409 sooner), 400 with none tracked."""
        runs = self.runs.setdefault(site, [])
        if runs and now - runs[-1].at < RUN_INTERVAL:
            after = (runs[-1].at + RUN_INTERVAL).isoformat(timespec="minutes")
            raise conflict(
                "This site's questions were asked less than a week ago; "
                f"the next run is possible after {after}."
            )
        if not self._prompts(site):
            raise bad_request("Track at least one question before starting a run.")
        runs.append(Run(at=now, number=len(runs), prompts=tuple(self._prompts(site))))
        return self.listing(site, status="ready")

    def view(self, site: str) -> AiVisibility:
        runs = self.runs.get(site, [])
        prompts = [p.as_model() for p in self._prompts(site)]
        if not runs:
            return AiVisibility(status="pending", snapshot=None, prompts=prompts, history=[])
        history = [AiRun(at=run.at, score=snapshot(site, run)[0].score) for run in runs]
        snap, outreach = snapshot(site, runs[-1])
        delta = None
        if len(history) > 1 and history[-1].score is not None and history[-2].score is not None:
            delta = round(history[-1].score - history[-2].score, 1)
        return AiVisibility(
            status="ready",
            snapshot=snap,
            page_outreach=outreach,
            prompts=prompts,
            history=history,
            delta=delta,
            next_refresh_at=runs[-1].at + RUN_INTERVAL,
        )
