//! Email addresses as people type them.

/// A plausible address: one `@`, something either side, a dot after it,
/// no spaces or angle brackets (lettre checks it fully before sending).
pub fn check_email(email: &str) -> Option<&'static str> {
    let Some((local, domain)) = email.split_once('@') else {
        return Some("An email address has an @ in it, like name@example.org.");
    };
    if local.is_empty()
        || domain.contains('@')
        || !domain.contains('.')
        || domain.starts_with('.')
        || domain.ends_with('.')
        || email
            .chars()
            .any(|c| c.is_whitespace() || "<>,;\"".contains(c))
        || email.len() > 254
    {
        return Some("That is not an email address: it should look like name@example.org.");
    }
    None
}
