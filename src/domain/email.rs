//! Email addresses as people type them.

/// An address as RFC 5321 writes a mailbox, in its plain form only:
/// `local@domain` with a dot-atom local part (no quoted local parts, no
/// comments, no address literals) and a domain of letters, digits and
/// hyphens with a dot in it, all ASCII, at most 254 characters. An
/// encoded word (`=?utf-8?b?...?=`) is refused too: its characters are
/// allowed in a local part, but a mail library may decode it and send
/// somewhere else than the address stored. What is stored is exactly what
/// the envelope says.
pub fn check_email(email: &str) -> Option<&'static str> {
    const NOT: &str = "That is not an email address: it should look like name@example.org.";
    let Some((local, domain)) = email.rsplit_once('@') else {
        return Some("An email address has an @ in it, like name@example.org.");
    };
    if email.len() > 254 || local.len() > 64 || !email.is_ascii() {
        return Some(NOT);
    }
    if !is_dot_atom(local) || !is_domain(domain) {
        return Some(NOT);
    }
    if local.contains("=?") || local.contains("?=") {
        return Some(NOT);
    }
    None
}

/// `atext` (RFC 5322): what a local part's words are made of.
fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c)
}

/// Words of `atext` joined by single dots.
fn is_dot_atom(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|word| !word.is_empty() && word.chars().all(is_atext))
}

/// Labels of letters, digits and hyphens (not first or last), at least two
/// of them, the last not all digits.
fn is_domain(s: &str) -> bool {
    let labels: Vec<&str> = s.split('.').collect();
    s.len() <= 253
        && labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels
            .last()
            .is_some_and(|l| !l.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_addresses_pass() {
        for ok in [
            "name@example.org",
            "first.last+league@mail.example.co.uk",
            "o'brien@pub-league.ie",
            "x_y-z@a1.example",
        ] {
            assert_eq!(check_email(ok), None, "{ok}");
        }
    }

    #[test]
    fn anything_a_mail_library_might_read_otherwise_is_refused() {
        for bad in [
            "=?utf-8?b?ZXZpbEBldmlsLnRlc3Q=?=@x.test",
            "a=?x@x.test",
            "\"evil@evil.test\"@x.test",
            "\"quoted\"@x.test",
            "name(comment)@x.test",
            "a@[127.0.0.1]",
            "a@b@example.org",
            "a..b@example.org",
            ".a@example.org",
            "a.@example.org",
            "a@example",
            "a@-example.org",
            "a@example..org",
            "a@example.org.",
            "a@1.2.3.4",
            "ünï@example.org",
            "a b@example.org",
            "<a@example.org>",
            "a@example.org\r\nBcc: x@y.z",
            "",
            "@example.org",
        ] {
            assert!(check_email(bad).is_some(), "{bad:?} passed");
        }
        assert!(check_email(&format!("{}@example.org", "a".repeat(65))).is_some());
    }
}
