//! Messages by email (issue 26), worded once: each says what happened,
//! links straight to where to act, why it was sent and how to stop it.
//! Plain text and HTML from one message; the HTML template escapes every
//! name and note, and lettre encodes the headers (a name cannot add one).

use askama::Template;
use chrono::{DateTime, Utc};

use crate::addresses::at_short;
use crate::db::late_results::LateResult;
use crate::db::mail::{FixtureFacts, Happening, NewMail, Overdue, Person};
use crate::db::{LeagueId, UserId};
use crate::league::notices::{Audience, Notice, Topic, notices};
use crate::league::time::Zone;

/// Where every absolute link points, and who messages come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailConfig {
    /// `https://league.example.org`, without a trailing slash.
    pub public_url: String,
    /// Set by the operator (`--public-url`): pages' absolute links (QR
    /// codes, calendar feeds, invitations) follow it too, not the Host
    /// header a request came with.
    pub explicit: bool,
}

impl MailConfig {
    pub fn new(public_url: &str) -> MailConfig {
        MailConfig {
            public_url: public_url.trim_end_matches('/').to_owned(),
            explicit: false,
        }
    }

    /// The operator's `--public-url`.
    pub fn configured(public_url: &str) -> MailConfig {
        MailConfig {
            explicit: true,
            ..MailConfig::new(public_url)
        }
    }

    /// The scheme and host of an operator's `--public-url`.
    pub fn origin(&self) -> Option<(&str, &str)> {
        if !self.explicit {
            return None;
        }
        let (scheme, rest) = self.public_url.split_once("://")?;
        Some((scheme, rest.split('/').next().unwrap_or(rest)))
    }

    /// The absolute address of a path on this site.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.public_url)
    }
}

/// One message, before it is addressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub subject: String,
    pub paragraphs: Vec<String>,
    /// Text laid out in lines of its own (the round-up), after the
    /// paragraphs.
    pub preformatted: Option<String>,
    /// The button: its words and where it goes.
    pub action: Option<(String, String)>,
    /// Why it was sent.
    pub why: String,
    /// How to stop it, and where.
    pub stop: String,
    pub stop_url: Option<String>,
}

#[derive(Template)]
#[template(path = "mail/message.txt")]
struct TextBody<'a> {
    preformatted: &'a Option<String>,
    name: &'a str,
    paragraphs: &'a [String],
    action: &'a Option<(String, String)>,
    why: &'a str,
    stop: &'a str,
    stop_url: &'a Option<String>,
}

#[derive(Template)]
#[template(path = "mail/message.html")]
struct HtmlBody<'a> {
    preformatted: &'a Option<String>,
    subject: &'a str,
    name: &'a str,
    paragraphs: &'a [String],
    action: &'a Option<(String, String)>,
    why: &'a str,
    stop: &'a str,
    stop_url: &'a Option<String>,
}

impl Message {
    /// The message addressed to `name` at `address`.
    pub fn to(
        &self,
        league: Option<LeagueId>,
        topic: &str,
        name: &str,
        address: &str,
        once_key: Option<String>,
    ) -> NewMail {
        let text = TextBody {
            preformatted: &self.preformatted,
            name,
            paragraphs: &self.paragraphs,
            action: &self.action,
            why: &self.why,
            stop: &self.stop,
            stop_url: &self.stop_url,
        }
        .render()
        .unwrap_or_else(|e| format!("(this message could not be worded: {e})"));
        let html = HtmlBody {
            preformatted: &self.preformatted,
            subject: &self.subject,
            name,
            paragraphs: &self.paragraphs,
            action: &self.action,
            why: &self.why,
            stop: &self.stop,
            stop_url: &self.stop_url,
        }
        .render()
        .unwrap_or_default();
        NewMail {
            league_id: league,
            once_key,
            topic: topic.to_owned(),
            to_address: address.to_owned(),
            to_name: one_line(name),
            subject: one_line(&self.subject),
            text_body: text,
            html_body: html,
            unsubscribe_url: None,
        }
    }
}

/// A header's text on one line, whatever a team's or a person's name
/// holds.
pub fn one_line(text: &str) -> String {
    text.split(['\r', '\n']).collect::<Vec<_>>().join(" ")
}

fn when(zone: Zone, t: Option<DateTime<Utc>>) -> String {
    t.map_or_else(
        || "a date to be fixed".to_owned(),
        |t| zone.local(t).format("%a %-d %b %Y, %H:%M").to_string(),
    )
}

fn match_name(f: &FixtureFacts) -> String {
    format!("{} v {}", f.home, f.away)
}

/// Why a captain is sent a notice, and how they stop it.
fn captain_footer(league_name: &str, topic: Topic) -> (String, String) {
    (
        format!(
            "You get this because you are a captain or secretary in {league_name} and asked to be told when: {}.",
            topic.label().to_lowercase()
        ),
        "To stop these, untick it on your account page:".to_owned(),
    )
}

/// The people of `audience` among `people`, each once, leaving out the
/// person who made the change and anyone who opted out of `topic`.
fn audience<'a>(
    people: &'a [Person],
    audience: &Audience,
    by: Option<UserId>,
    topic: Topic,
) -> Vec<&'a Person> {
    let by_teams: Vec<_> = people
        .iter()
        .filter(|p| Some(p.user) == by)
        .filter_map(|p| p.captain_of)
        .collect();
    let mut out: Vec<&Person> = Vec::new();
    for p in people {
        let wanted = match audience {
            Audience::OtherCaptains => p.captain_of.is_some_and(|t| !by_teams.contains(&t)),
            Audience::BothCaptains => p.captain_of.is_some(),
            Audience::Secretaries => p.captain_of.is_none(),
            Audience::EnteringCaptainAndSecretaries(entered_by) => {
                p.captain_of.is_none() || Some(p.user) == *entered_by
            }
        };
        if wanted
            && Some(p.user) != by
            && !p.opted_out.iter().any(|t| t == topic.key())
            && !out.iter().any(|o| o.user == p.user)
        {
            out.push(p);
        }
    }
    out
}

/// The messages an audited change makes.
pub fn compose(h: &Happening, config: &MailConfig) -> Vec<NewMail> {
    let Some(f) = &h.fixture else {
        return Vec::new();
    };
    let zone = Zone::parse(&h.time_zone).unwrap_or_default();
    let match_at = at_short(&h.league_short).match_page(f.id);
    let mut out = Vec::new();
    for (notice, who) in notices(
        &h.entity,
        &h.action,
        h.before.as_deref(),
        h.after.as_deref(),
    ) {
        let topic = notice.topic();
        let name = match_name(f);
        let (subject, paragraphs, action) = match &notice {
            Notice::Submitted { version } => (
                format!("Please confirm the result of {name}"),
                vec![format!(
                    "The result of {name} ({}) has been entered (version {version}) and waits for your confirmation. If it is wrong, dispute it with a note for the secretary.",
                    when(zone, f.starts_at)
                )],
                ("Confirm or dispute the result", match_at.history()),
            ),
            Notice::Disputed { version, note } => (
                format!("The result of {name} is disputed"),
                vec![
                    format!("Version {version} of the result of {name} was disputed."),
                    format!("The note says: {note}"),
                ],
                ("See the result and its history", match_at.history()),
            ),
            Notice::Approved { version } => (
                format!("The result of {name} is approved"),
                vec![format!(
                    "The secretary approved version {version} of the result of {name}. It now counts in the tables."
                )],
                ("See the match", match_at.to_string()),
            ),
            Notice::Postponed => (
                format!("{name} is postponed"),
                vec![format!(
                    "{name}, due {}, is postponed. A new date will follow.",
                    when(zone, f.starts_at)
                )],
                ("See the match", match_at.to_string()),
            ),
            Notice::NewDate { from, to } => (
                format!("{name} has a new date"),
                vec![format!(
                    "{name} moves from {} to {}.",
                    when(zone, *from),
                    when(zone, *to)
                )],
                ("See the match", match_at.to_string()),
            ),
            Notice::NewVenue => (
                format!("{name} has a new venue"),
                vec![format!(
                    "{name} ({}) is now played at {}.",
                    when(zone, f.starts_at),
                    f.venue.as_deref().unwrap_or("a venue to be fixed")
                )],
                ("See the match", match_at.to_string()),
            ),
            Notice::Walkover { conceded_by } => (
                format!("{name}: a walkover"),
                vec![format!(
                    "{} conceded {name}; the walkover is recorded.",
                    match conceded_by {
                        crate::db::Side::Home => &f.home,
                        crate::db::Side::Away => &f.away,
                    }
                )],
                ("See the match", match_at.to_string()),
            ),
        };
        let (why, stop) = captain_footer(&h.league_name, topic);
        let message = Message {
            preformatted: None,
            subject,
            paragraphs,
            action: Some((action.0.to_owned(), config.url(&action.1))),
            why,
            stop,
            stop_url: Some(config.url("/account")),
        };
        for p in audience(&h.people, &who, h.by, topic) {
            out.push(message.to(
                Some(h.league_id),
                topic.key(),
                &p.username,
                &p.email,
                Some(format!("event:{}:{}:{}", h.audit_id, topic.key(), p.user)),
            ));
        }
    }
    out
}

/// The reminders due for an overdue fixture, each keyed so it is sent
/// once: one per fixture and captain for a result not entered, one per
/// version and captain for a result not confirmed.
pub fn reminders(o: &Overdue, config: &MailConfig) -> Vec<NewMail> {
    let f = &o.fixture;
    let name = match_name(f);
    let match_at = at_short(&o.league_short).match_page(f.id);
    let (subject, paragraph, action, key) = match o.version {
        None => (
            format!("No result yet for {name}"),
            format!(
                "{name} was due to be played and no result has been entered. Please enter it, or tell the secretary why it was not played."
            ),
            ("Enter the result", match_at.card()),
            format!("remind:missing:{}", f.id),
        ),
        Some(v) => (
            format!("The result of {name} is not confirmed yet"),
            format!(
                "Version {v} of the result of {name} has waited more than 48 hours for the other captain's confirmation."
            ),
            ("Confirm or dispute the result", match_at.history()),
            format!("remind:unconfirmed:{}:{v}", f.id),
        ),
    };
    let (why, stop) = captain_footer(&o.league_name, Topic::Reminder);
    let message = Message {
        preformatted: None,
        subject,
        paragraphs: vec![paragraph],
        action: Some((action.0.to_owned(), config.url(&action.1))),
        why,
        stop,
        stop_url: Some(config.url("/account")),
    };
    audience(&o.people, &Audience::BothCaptains, None, Topic::Reminder)
        .into_iter()
        .map(|p| {
            message.to(
                Some(o.league_id),
                Topic::Reminder.key(),
                &p.username,
                &p.email,
                Some(format!("{key}:{}", p.user)),
            )
        })
        .collect()
}

/// Who a reminder of a fixture goes to, among its `people`: both teams'
/// captains, less those who asked for no reminders. A secretary's reminder
/// and the morning's own go to the same people.
pub fn reminder_audience(people: &[Person]) -> Vec<&Person> {
    audience(people, &Audience::BothCaptains, None, Topic::Reminder)
}

/// A secretary's reminder of fixture `f` (issue 39), sent from the
/// console at `at`: what it asks for, worded as the morning's reminders
/// are, keyed by its moment so a reminder sent again the next day is a
/// new message while the same one is never queued twice.
pub fn secretary_reminder(
    league: &crate::db::League,
    f: &FixtureFacts,
    reminder: crate::league::week::Reminder,
    people: &[Person],
    at: DateTime<Utc>,
    config: &MailConfig,
) -> Vec<NewMail> {
    use crate::league::week::Reminder;
    let name = match_name(f);
    let match_at = at_short(&league.short_name).match_page(f.id);
    let (subject, paragraph, action) = match reminder {
        Reminder::EnterResult => (
            format!("No result yet for {name}"),
            format!(
                "{name} was due to be played on {} and no result has been entered. The league's secretary asks you to enter it, or to tell them why it was not played.",
                when(league.time_zone, f.starts_at)
            ),
            ("Enter the result", match_at.card()),
        ),
        Reminder::Confirm { version } => (
            format!("The result of {name} is not confirmed yet"),
            format!(
                "Version {version} of the result of {name} waits for the other captain to confirm it. The league's secretary asks you to confirm it, or to dispute it with a note."
            ),
            ("Confirm or dispute the result", match_at.history()),
        ),
    };
    let (why, stop) = captain_footer(&league.name, Topic::Reminder);
    let message = Message {
        preformatted: None,
        subject,
        paragraphs: vec![paragraph],
        action: Some((action.0.to_owned(), config.url(&action.1))),
        why,
        stop,
        stop_url: Some(config.url("/account")),
    };
    reminder_audience(people)
        .into_iter()
        .map(|p| {
            message.to(
                Some(league.id),
                Topic::Reminder.key(),
                &p.username,
                &p.email,
                Some(format!(
                    "remind:secretary:{}:{}:{}",
                    f.id,
                    at.timestamp(),
                    p.user
                )),
            )
        })
        .collect()
}

/// The proposal of a late result's penalty to each of the league's
/// secretaries among `people`, keyed so it is sent once per fixture and
/// kind.
pub fn late_result_proposal(
    l: &LateResult,
    people: &[Person],
    config: &MailConfig,
) -> Vec<NewMail> {
    let name = match_name(&l.fixture);
    let message = Message {
        preformatted: None,
        subject: format!("Late result: {name}"),
        paragraphs: vec![
            format!(
                "{name} has had no result for {} days. By the league's rule the penalty \"{}\" against {} is proposed.",
                l.days_late, l.kind_name, l.fixture.home
            ),
            "Apply it with one click on the approvals page, or leave it: nothing is recorded until you do.".to_owned(),
        ],
        action: Some((
            "See the proposal".to_owned(),
            config.url(&format!(
                "{}#late",
                at_short(&l.league_short).console().approvals()
            )),
        )),
        why: format!(
            "You get this because you are a secretary of {} and asked to be told when: {}.",
            l.league_name,
            Topic::LateResult.label().to_lowercase()
        ),
        stop: "To stop these, untick it on your account page:".to_owned(),
        stop_url: Some(config.url("/account")),
    };
    audience(people, &Audience::Secretaries, None, Topic::LateResult)
        .into_iter()
        .map(|p| {
            message.to(
                Some(l.league_id),
                Topic::LateResult.key(),
                &p.username,
                &p.email,
                Some(format!("late:{}:{}:{}", l.fixture.id, l.kind_id, p.user)),
            )
        })
        .collect()
}

/// A link by email: verify an address, reset a password, sign in.
pub fn link_message(kind: LinkKind, url: String, config: &MailConfig) -> Message {
    let (subject, paragraph, label, why) = match kind {
        LinkKind::Verify => (
            "Confirm your email address for Boneyard",
            "Follow this link to confirm this address for your Boneyard account. Until you do, nothing else is sent to it.",
            "Confirm this address",
            "You get this because this address was entered on a Boneyard account.",
        ),
        LinkKind::Reset => (
            "Reset your Boneyard password",
            "Someone (we hope you) asked to reset the password of your account. The link works once, within an hour.",
            "Choose a new password",
            "You get this because a password reset was asked for with this address.",
        ),
        LinkKind::SignIn => (
            "Your Boneyard sign-in link",
            "Follow this link to sign in. It works once, within an hour.",
            "Sign in",
            "You get this because a sign-in link was asked for with this address.",
        ),
    };
    Message {
        preformatted: None,
        subject: subject.to_owned(),
        paragraphs: vec![paragraph.to_owned()],
        action: Some((label.to_owned(), url)),
        why: why.to_owned(),
        stop: "If it was not you, ignore this message: nothing changes.".to_owned(),
        stop_url: Some(config.url("/account")).filter(|_| kind == LinkKind::Verify),
    }
}

/// What a link by email is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    Verify,
    Reset,
    SignIn,
}

/// An invitation by email: the one-time link that makes the person's
/// account with `role` (`captain of Crown A in Dominoes North`).
pub fn invitation_message(role: &str, url: String, days: i64) -> Message {
    Message {
        preformatted: None,
        subject: format!("You are invited to Boneyard as {role}"),
        paragraphs: vec![
            format!(
                "You have been named {role} on Boneyard, where the league keeps its fixtures, results and tables."
            ),
            format!(
                "Follow this link to make your account with a password of your own. It works once, for {days} days."
            ),
        ],
        action: Some(("Make my account".to_owned(), url)),
        why: "You get this because the league's secretary gave this address for you.".to_owned(),
        stop: "If you did not expect it, ignore this message: no account is made.".to_owned(),
        stop_url: None,
    }
}
