"""Read commands a game master reaches for between battles, for every ruleset, with ``--at SEQ``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, wants_csv
from campaign.cli.output import Output, escape, handles_errors
from campaign.cli.session import named_campaign, open_app, resolved
from campaign.i18n import N_, _
from campaign.read import views
from campaign.read.describe import count, result_said, value, words
from campaign.read.describe import money as money_words
from campaign.read.views import MONEY, cell
from campaign.rulesets.kinds import OFFICER, UNIT
from events.errors import InvalidInputError
from events.recorded import seq, text, texts, whole

if TYPE_CHECKING:
    from rich.table import Table

    from projections.fold import Summary
    from projections.state.campaigns import CampaignInfo

AtOpt = Annotated[int | None, typer.Option("--at", help="Show the campaign as it was at this seq.")]


def summary(campaign: str | None, at: int | None) -> tuple[CampaignInfo, Summary]:
    ledger, info = resolved(campaign)
    return info, views.summary(ledger, info, at)


def current_summary(campaign: str | None, at: int | None) -> tuple[CampaignInfo, Summary]:
    """The campaign's summary as ``status`` shows it: at its head, from the read models the inline projector
    keeps (no ruleset, no state decoded: start-up time); folded by its ruleset at ``--at SEQ``, or when the read
    models do not hold it (a campaign logged before they did, until its next append)."""
    from projections.summaries import stored_summary

    info = named_campaign(campaign)
    stored = stored_summary(open_app().engine, info.campaign_id, info.last_seq) if at is None else None
    return info, stored if stored is not None else views.summary(open_app().ledger, info, at)


UNKEPT = (("campaign days", ("day",)), ("turns", ("turn", "round")))
"""The battles view's columns a ruleset may not keep, in words, and the row keys that hold them."""


def _not_kept(what: str) -> str:
    """What a ruleset does not keep, as the sentence after the battles says it (not the column's heading)."""
    from campaign.i18n import pgettext

    return pgettext("not kept", "campaign days") if what == "campaign days" else pgettext("not kept", "turns")


def _days_pass(ruleset: str) -> bool:
    """Whether the ruleset's campaigns count days (`rest`, `march`, its plug-in says): `status` gives the day of
    these only (the others said "day 0" for ever)."""
    from campaign.rulesets import RULESETS

    info = RULESETS.get(ruleset)
    return info is not None and info.days_pass


COUNTED = {"men": "men", "models": "models", "battles": "battles"}


def shown(v: object) -> bool:
    """Whether a value says something in a table: a number (0 included) or words; not None, False or []."""
    return v is not None and v is not False and v != []


def _table(title: str, rows: Sequence[Mapping[str, object]], columns: list[str], ruleset: str | None = None) -> Table:
    from rich.table import Table  # a rule command imports this module, and prints no table (start-up time)

    view = Table(title=title)
    for column in columns:
        view.add_column(views.heading(column))
    for row in rows:
        view.add_row(
            *(escape(cell(c, row.get(c), ruleset)) for c in columns)
        )  # a name is shown as typed, never as markup
    return view


def _said(key: str) -> str:
    return views.HEADINGS.get(key, words(key))


def unit_line(unit: Mapping[str, object]) -> str:
    """A unit's record as one line of words: "Keno 3rd Squad (Keno): regular, 6 men, 3 battles, …"."""
    parts = []
    for key, v in unit.items():
        if key in ("unit_id", "name", "side") or v is None or v is False or v == []:
            continue
        if key == "pay_penalty" and "arrears" in unit:  # the stored penalty: `arrears` is the one in force now
            continue
        if key == "campaign_morale" and isinstance(v, int):
            parts.append(f"{_said(key)} {money_words(v, signed=True)}")
            continue
        if key in COUNTED and isinstance(v, int):
            parts.append(count(v, COUNTED[key]))
        elif key in MONEY and isinstance(v, int) and not isinstance(v, bool):
            parts.append(f"{_said(key)} {money_words(v)}")
        elif key == "disbanded":
            parts.append(f"disbanded ({v})" if isinstance(v, str) else "disbanded")
        else:
            parts.append(_said(key) if v is True else f"{_said(key)} {value(v)}")
    return f"{unit['name']} ({unit['side']}): " + ", ".join(parts)


def term(ruleset: str, set_name: str, value: str, english: str | None = None) -> str:
    """A recorded value of a closed set in the seed's words (a rank, Glory); in English as recorded, or as
    ``english`` says it (and so where the seed names no such term)."""
    from campaign.i18n import DEFAULT, language

    if language() == DEFAULT:
        return english or value
    from campaign.i18n.terms import vocabulary

    found = vocabulary(ruleset).term(set_name, value)
    return found.shown() if found is not None else _(english or value)


def _hero_said(found: Mapping[str, object]) -> str:
    """A Grimdark hero's career in words: battles, XP, injuries and traits, and why it left the campaign."""
    injuries = ", ".join(texts(found["injuries"])) or _("none")
    traits = ", ".join(texts(found["traits"])) or _("none")
    out_of_it = _("; out of the campaign ({why})").format(why=found["out"]) if found["out"] else ""
    return _("{pc} ({side}), a hero: {battles}, {xp} XP, injuries: {injuries}; traits: {traits}{out}").format(
        pc=found["pc"],
        side=found["side"],
        battles=count(whole(found["battles"]), "battles"),
        xp=found["xp"],
        injuries=injuries,
        traits=traits,
        out=out_of_it,
    )


def register(app: typer.Typer) -> None:  # noqa: C901, PLR0915 (its commands, nested, are counted in it)
    @app.command("status")
    @handles_errors
    def status(
        campaign: CampaignOpt = None, at: AtOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table"
    ) -> None:
        """The campaign at a glance: day, units, battles fought, treasuries."""
        csv = wants_csv(fmt, as_json)
        out = Output(as_json)
        info, s = current_summary(campaign, at)
        if as_json:
            out.json(views.status_of(info, s, at))
            return
        columns = [
            c
            for c in views.STATUS_COLUMNS
            # A column the ruleset keeps is shown, its zeros too (a 0 is a value, not nothing: 0 == False);
            # a flag only where it is set.
            if any(shown(u.get(c)) for u in s.units)
        ]
        if csv:
            from campaign.cli.interchange_cli import print_status_csv

            print_status_csv(info, s.units, columns, at)
            return
        from campaign.i18n import _

        where = _(" at #{seq}").format(seq=at) if at is not None else ""
        day = _("day {day}, ").format(day=s.day) if _days_pass(info.ruleset) else ""
        out.console.print(
            f"[bold]{escape(info.name)}[/] ({info.ruleset}){where}: {day}{count(len(s.units), 'units')}, "
            f"{count(len(s.battles), 'battles')}"
        )
        out.console.print(_table(_("Units"), s.units, columns, info.ruleset))
        if s.careers and "glory" in s.careers[0]:
            out.console.print(_table(_("Officers"), s.careers, ["pc", "side", "glory", "rank"], info.ruleset))
        for side, money in sorted(s.treasury.items()):
            out.console.print(_("treasury of {side}: {money}").format(side=escape(side), money=money_words(money)))

    @app.command("unit")
    @handles_errors
    def unit(
        name: Annotated[str, UNIT], campaign: CampaignOpt = None, at: AtOpt = None, as_json: JsonOpt = False
    ) -> None:
        """One unit's record across all its battles."""
        from campaign.rulesets.common import did_you_mean, named

        info, s = summary(campaign, at)
        found = next((u for u in s.units if name == u["unit_id"]), None) or named(
            s.units, name, lambda u: text(u["name"])
        )
        if found is None:
            hint = did_you_mean(name, [str(u["name"]) for u in s.units])
            raise InvalidInputError.saying("unknown unit {name!r}{hint}", name=name.strip(), hint=hint)
        ledger = open_app().ledger
        # Streamed: what is in effect only, in memory bounded by a page and the unit's own history.
        history = views.unit_history(ledger.store, info.campaign_id, text(found["unit_id"]), at)
        out = Output(as_json)
        if as_json:
            out.json({"unit": found, "history": [{k: v for k, v in h.items() if k != "shown"} for h in history]})
            return
        out.console.print(escape(unit_line(found)))
        for item in history:
            if item["shown"]:
                out.console.print(f"  [dim]#{item['seq']}[/] {escape(str(item['what']))}")

    @app.command("battles")
    @handles_errors
    def battles(campaign: CampaignOpt = None, at: AtOpt = None, as_json: JsonOpt = False) -> None:
        """The battle history."""
        info, s = summary(campaign, at)
        out = Output(as_json)
        if as_json:
            out.json(s.battles)
            return
        # The same columns under every ruleset (a round is Grimdark's turn; a result, once the battle is over).
        rows = [
            {
                "#": b.get("number"),
                "battle": b["name"],
                "day": b.get("day"),
                "turns": b.get("turn", b.get("round")),
                # in the reader's words, as the report's result line says it
                "result": result_said(str(b["result"]), b.get("winner"), info.ruleset)
                if b.get("result")
                else _("being fought"),
                "winner": b.get("winner"),
            }
            for b in s.battles
        ]
        columns = ["#", "battle", "day", "turns", "result", "winner"]
        out.console.print(_table(_("Battles"), rows, columns, info.ruleset))
        # A column the ruleset does not keep is said so, not left empty unexplained.
        unused = [
            _not_kept(what) for what, keys in UNKEPT if s.battles and not any(k in b for b in s.battles for k in keys)
        ]
        if len(unused) == 1:
            out.console.print(_("{ruleset} keeps no {what}: those cells stay empty.").format(
                ruleset=info.ruleset, what=unused[0]
            ))  # fmt: skip
        elif unused:
            out.console.print(_("{ruleset} keeps no {what} and no {other}: those cells stay empty.").format(
                ruleset=info.ruleset, what=unused[0], other=unused[1]
            ))  # fmt: skip

    @app.command("treasury")
    @handles_errors
    def treasury(campaign: CampaignOpt = None, at: AtOpt = None, as_json: JsonOpt = False) -> None:
        """Each side's money, and who is owed pay (or that the ruleset has none)."""
        info, s = summary(campaign, at)
        owed = views.owed_pay(s)
        out = Output(as_json)
        if as_json:
            out.json({"treasury": s.treasury, "owed": owed})
            return
        if not s.treasury:
            out.console.print(
                escape(_("{campaign}: {ruleset} keeps no treasury.").format(campaign=info.name, ruleset=info.ruleset))
            )
        for side, money in sorted(s.treasury.items()):
            out.console.print(f"{escape(side)}: {money_words(money)}")
        if not any("pay_owed" in u or "pay_penalty" in u for u in s.units):
            out.console.print(_("{ruleset} has no pay: no unit is ever owed any.").format(ruleset=info.ruleset))
        elif not owed:
            out.console.print(_("No unit is owed pay."))
        else:
            kept = [c for c in ("arrears", "paydays_missed") if any(c in row for row in owed)]
            out.console.print(_table(_("Owed pay"), owed, ["unit", "side", "owed", *kept]))

    @app.command("career")
    @handles_errors
    def career(
        pc: Annotated[str, OFFICER], campaign: CampaignOpt = None, at: AtOpt = None, as_json: JsonOpt = False
    ) -> None:
        """A career: a player character's battles, wounds, Reputation and rank, or an officer's Glory and rank."""
        from campaign.rulesets.common import did_you_mean, named

        info, s = summary(campaign, at)
        found = named(s.careers, pc, lambda c: text(c["pc"]))
        if found is None and not s.careers:
            raise InvalidInputError.saying(
                "{ruleset} keeps no careers (Mass Combat's characters, Disorder's officers and Grimdark's "
                "heroes have them)",
                ruleset=info.ruleset,
            )
        if found is None:
            hint = did_you_mean(pc, [str(c["pc"]) for c in s.careers])
            raise InvalidInputError.saying("no career for {pc!r} in this campaign{hint}", pc=pc.strip(), hint=hint)
        out = Output(as_json)
        if as_json:
            out.json(found)
        elif found.get("hero"):
            out.console.print(escape(_hero_said(found)))
        elif "glory" in found:
            glory = seq(found["glory_by_battle"])
            by_battle = ", ".join(money_words(whole(g), signed=True) for g in glory) or _("none yet")
            rank = term(info.ruleset, "rank", str(found["rank"])) if found["rank"] else _("no rank yet")
            said = _("{pc} ({side}): {battles}, {glory} {points} ({by_battle}), {rank}").format(
                pc=found["pc"],
                side=found["side"],
                battles=count(len(seq(found["battles"])), "battles"),
                glory=term(info.ruleset, "glory", "glory", N_("Glory")),
                points=money_words(whole(found["glory"])),
                by_battle=by_battle,
                rank=rank,
            )
            out.console.print(escape(said))
        else:
            said = _(
                "{pc}: {battles}, {damage} damage taken, Reputation {reputation} ({permanent} of it permanent), "
                "rank {rank}"
            ).format(
                pc=found["pc"],
                battles=count(len(seq(found["battles"])), "battles"),
                damage=money_words(whole(found["damage"])),
                reputation=money_words(whole(found["reputation"]), signed=True),
                permanent=money_words(whole(found["permanent_reputation"]), signed=True),
                rank=money_words(whole(found["rank"]), signed=True),
            )
            out.console.print(escape(said))

    @app.command("rebuild")
    @handles_errors
    def rebuild(as_json: JsonOpt = False) -> None:
        """Drop every projection and refold it from the log (streamed, with progress)."""
        from campaign.bootstrap import projectors
        from projections.campaign_state import rebuild as rebuild_projections

        app_ = open_app()
        with app_.engine.connect() as conn:
            total = conn.exec_driver_sql("SELECT count(*) FROM events").scalar_one()
            campaigns = conn.exec_driver_sql("SELECT count(DISTINCT campaign_id) FROM events").scalar_one()
        out = Output(as_json)
        with out.progress(total, "rebuilding projections") as progress:
            task = progress.add_task("rebuilding projections", total=total)
            folded = rebuild_projections(
                app_.engine, app_.ledger.store, projectors(), on_page=lambda n: progress.advance(task, n)
            )
        if as_json:
            out.json({"events": folded})
        else:
            # every campaign of the file, not only the one a command would name
            out.console.print(
                f"rebuilt every projection from the {count(folded, 'events')} of "
                f"{'its one campaign' if campaigns == 1 else f'all {campaigns} campaigns in the file'}"
            )
