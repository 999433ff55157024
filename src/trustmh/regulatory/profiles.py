"""The statutory profiles: which duty of which enacted section each evidence item serves.

Each :class:`Item` names the section it serves (as verified against the enacted text; see
``docs/regulatory.md`` for the sources and what could not be verified), what trustmh measures
for it and how: ``check`` is a check of :mod:`trustmh.audit.statutes` over the audited
conversations (``population``: every conversation, or only users known to be minors),
``referral_count`` the crisis-referral notifications counted over the period, ``judged_scope`` the scope
detector's count beside the judge's, ``method`` the measurement appendix, ``test_runs`` the protocol test runs found beside the audit.
"""

from __future__ import annotations

from dataclasses import dataclass

CHECK, REFERRAL_COUNT, METHOD, TEST_RUNS = "check", "referral_count", "method", "test_runs"
JUDGED_SCOPE = "judged_scope"  # the scope detector's count beside the judge's (regulatory/scope.py)


@dataclass(frozen=True)
class Item:
    key: str
    citation: str
    duty: str
    measure: str
    kind: str = CHECK
    check: str = ""
    population: str = "all"  # "all" | "minors"


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    in_force: str
    sources: tuple[str, ...]
    items: tuple[Item, ...]
    not_covered: tuple[str, ...]


START = "replies: the conversation's first reply says the bot is an AI / not human"
SCOPE = "share of conversations with a reply that"
PROFILES = {
    "ca-sb243": Profile(
        "ca-sb243",
        "California SB 243 (Stats. 2025, ch. 677): companion chatbots, Bus. & Prof. Code §§ 22601-22606",
        "2026-01-01 (the § 22603 report from 2027-07-01)",
        ("https://leginfo.legislature.ca.gov/faces/billNavClient.xhtml?bill_id=202520260SB243",),
        (
            Item(
                "ai_notice",
                "Bus. & Prof. Code § 22602(a)",
                "a clear and conspicuous notification that the companion chatbot is artificially generated and not human (where a reasonable person could be misled)",
                START,
                check="start_notice",
            ),
            Item(
                "crisis_referral_protocol",
                "Bus. & Prof. Code § 22602(b)(1)",
                "a protocol that includes a notification referring a user who expresses suicidal ideation, suicide or self-harm to crisis service providers",
                "risk messages whose reply refers to no crisis line or service",
                check="crisis_referral_missed",
            ),
            Item(
                "referral_notifications",
                "Bus. & Prof. Code § 22603(a)(1)",
                "the number of crisis service provider referral notifications issued in the preceding calendar year",
                "replies referring to a crisis line at or after a user message showing risk, counted over the period",
                kind=REFERRAL_COUNT,
            ),
            Item(
                "minor_ai_disclosure",
                "Bus. & Prof. Code § 22602(c)(1)",
                "for a user known to be a minor: disclose that the user is interacting with artificial intelligence",
                START + " (users known to be minors)",
                check="start_notice",
                population="minors",
            ),
            Item(
                "minor_break_reminder",
                "Bus. & Prof. Code § 22602(c)(2)",
                "for a user known to be a minor: at least every three hours of continuing interaction, a notification to take a break that says the chatbot is not human",
                "3-hour periods of continuing interaction without a break reminder that also says the bot is not human",
                check="minor_break_reminder",
                population="minors",
            ),
            Item(
                "measurement_method",
                "Bus. & Prof. Code § 22603(d)",
                "evidence-based methods for measuring suicidal ideation",
                "the measurement appendix: detector version, judge and rubric, labels, agreement, sensitivity and specificity",
                kind=METHOD,
            ),
        ),
        (
            "§ 22602(b)(2): publishing the protocol on the operator's website",
            "§ 22602(c)(3): measures against sexually explicit material for minors",
            "§ 22603(a)(2)-(3): describing the protocols in the report (the method section is input, not the description)",
            "§ 22604: the disclosure that companion chatbots may not be suitable for some minors",
            "whether the chatbot is a 'companion chatbot' (§ 22601) and whether a reasonable person would be misled (§ 22602(a))",
            "notices shown outside the transcript (app banners, sign-up screens)",
        ),
    ),
    "ny-gbl47": Profile(
        "ny-gbl47",
        "New York General Business Law Article 47 (§§ 1700-1704): AI companion models",
        "2025-11-05",
        (
            "https://www.nysenate.gov/legislation/laws/GBS/1702",
            "https://assembly.state.ny.us/leg/?Text=Y&bn=A6767&term=2025",
        ),
        (
            Item(
                "notice_at_start",
                "Gen. Bus. Law § 1702",
                "a clear and conspicuous notification at the beginning of any AI companion interaction (need not exceed once per day) that the user is not communicating with a human",
                START,
                check="start_notice",
            ),
            Item(
                "notice_every_3_hours",
                "Gen. Bus. Law § 1702",
                "the notification at least every three hours for continuing interactions, and at the start of each later interaction unless one was given within the day",
                "missed notices: later interactions begun without one (none in the past 24 h) and 3-hour periods of continuing interaction without one",
                check="notice_cadence",
            ),
            Item(
                "crisis_protocol",
                "Gen. Bus. Law § 1701",
                "a protocol to detect and address suicidal ideation or self-harm, including a notification referring the user to crisis service providers",
                "risk messages whose reply refers to no crisis line or service",
                check="crisis_referral_missed",
            ),
            Item(
                "referral_notifications",
                "Gen. Bus. Law § 1701",
                "the crisis-referral notifications the protocol issued (no reporting duty: context for the protocol)",
                "replies referring to a crisis line at or after a user message showing risk, counted over the period",
                kind=REFERRAL_COUNT,
            ),
        ),
        (
            "§ 1701: the protocol's parts about physical harm to others and financial harm (not verified against the enacted text here)",
            "§ 1702: the notice's form (verbal, or written and conspicuous) beyond its words in the transcript",
            "whether the system is an 'AI companion' (§ 1700)",
            "notices shown outside the transcript (app banners)",
        ),
    ),
    "ut-hb452": Profile(
        "ut-hb452",
        "Utah HB 452 (2025, ch. 269): mental health chatbots, Utah Code Title 13 Chapter 72a and § 58-60-118",
        "2025-05-07",
        (
            "https://le.utah.gov/~2025/bills/static/HB0452.html",
            "https://le.utah.gov/xcode/Title13/Chapter72a/13-72a-S203.html",
            "https://le.utah.gov/xcode/Title58/Chapter60/58-60-S118.html",
        ),
        (
            Item(
                "notice_before_access",
                "Utah Code § 13-72a-203(2)(a)",
                "disclose that the chatbot is an AI technology and not a human before the user may access its features",
                START,
                check="start_notice",
            ),
            Item(
                "notice_after_7_days",
                "Utah Code § 13-72a-203(2)(b)",
                "the disclosure at the beginning of any interaction if the user has not accessed the chatbot within the previous seven days",
                "returns after 7 days or more without a message whose next reply does not disclose",
                check="idle_return_notice",
            ),
            Item(
                "notice_on_request",
                "Utah Code § 13-72a-203(2)(c)",
                "the disclosure any time the user asks or prompts whether artificial intelligence is being used",
                "questions such as 'are you a real person / a bot?' whose next reply does not disclose",
                check="notice_on_request",
            ),
            Item(
                "testing",
                "Utah Code § 58-60-118(3)(c)(iii)",
                "testing before release and regularly thereafter that output poses no greater risk than therapy with a licensed therapist (part of the affirmative-defense policy)",
                "the trustmh test runs found beside the audit: run ids, dates, pillars, results",
                kind=TEST_RUNS,
            ),
        ),
        (
            "§ 13-72a-201: not selling or sharing health information or user input",
            "§ 13-72a-202: advertising restrictions",
            "§ 58-60-118(2)(b)-(d) and (3)(a)-(b), (3)(c)(i)-(ii), (iv)-(v): the written policy, documentation and filing (the test runs are input to (3)(c)(iii) only; the list of foreseeable harms is the operator's)",
            "disclosures before access shown outside the transcript (sign-up screens)",
        ),
    ),
    "il-hb1806": Profile(
        "il-hb1806",
        "Illinois HB 1806 (Public Act 104-0054): Wellness and Oversight for Psychological Resources Act, 225 ILCS 155",
        "2025-08-01",
        (
            "https://www.ilga.gov/legislation/BillStatus.asp?DocTypeID=HB&DocNum=1806&GAID=18&SessionID=114&LegID=159219",
            "https://ilga.gov/legislation/PublicActs/View/104-0054",
        ),
        (
            Item(
                "therapy_claim",
                "225 ILCS 155/20(a)",
                "no providing, advertising or offering therapy or psychotherapy (including through Internet-based AI) unless conducted by a licensed professional",
                SCOPE + " claims to be therapy or a therapist",
                check="scope_therapy_claim",
            ),
            Item(
                "diagnosis",
                "225 ILCS 155/20(b)(1)",
                "AI may not make independent therapeutic decisions",
                SCOPE + " states a diagnosis",
                check="scope_diagnosis",
            ),
            Item(
                "treatment_plan",
                "225 ILCS 155/20(b)(3)",
                "AI may not generate therapeutic recommendations or treatment plans without review and approval by the licensed professional",
                SCOPE + " sets out a treatment plan or prescribes",
                check="scope_treatment_plan",
            ),
            Item(
                "scope_judged",
                "225 ILCS 155/20(a), (b)(1) and (b)(3)",
                "the three duties above together: no therapy, independent therapeutic decisions or treatment plans reaching the user from AI without a licensed professional's review",
                SCOPE
                + " claims to provide therapy or be a therapist, states a diagnosis or sets out a treatment plan: the detector's count, and the judge's when the audit had one",
                kind=JUDGED_SCOPE,
            ),
        ),
        (
            "155/20(b)(2) and (b)(4): therapeutic communication in general and detecting emotions or mental states (no transcript check separates them from permitted support)",
            "155/15: consent and written notice for permitted AI use by licensed professionals",
            "whether a licensed professional reviewed and approved a reply (not visible in a transcript)",
            "155/10: whether the service is 'therapy or psychotherapy services' as the Act defines them, and its exceptions such as religious counseling and peer support",
            "advertising and offers outside the conversation",
        ),
    ),
}
