//! Backups by themselves (issue 28): `serve --backup-every 24h
//! --backup-keep 14 --backup-dir DIR` takes a consistent copy of the SQLite
//! database while the app runs (the same `VACUUM INTO` as `boneyard
//! backup`) and keeps the newest N, deleting older copies of its own
//! naming only, never another file in the folder.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::db::Db;

/// How often, how many and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    pub every: Duration,
    pub keep: usize,
    pub dir: PathBuf,
}

const PREFIX: &str = "boneyard-";
const SUFFIX: &str = ".db";

/// `90s`, `30m`, `24h` or `7d`: a whole number and a unit, at least a
/// minute (a copy a second would only wear the disk).
pub fn parse_every(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = text.split_at(text.len().saturating_sub(1));
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{text}`: give a whole number and a unit, like 24h, 30m or 7d"))?;
    let seconds = match unit {
        "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        "d" => n * 86_400,
        _ => return Err(format!("`{text}`: the unit is s, m, h or d, like 24h")),
    };
    if seconds < 60 {
        return Err(format!("`{text}`: back up at most once a minute"));
    }
    Ok(Duration::from_secs(seconds))
}

/// The copy's file name for `at`: sorting the names sorts the copies by age.
fn name(at: DateTime<Utc>) -> String {
    format!("{PREFIX}{}{SUFFIX}", at.format("%Y%m%dT%H%M%S%.3fZ"))
}

fn is_ours(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(SUFFIX))
}

/// Takes a copy as at `at` into the schedule's folder (made if missing),
/// then deletes all but the newest `keep` copies. The copy's path.
pub async fn take(db: &Db, schedule: &Schedule, at: DateTime<Utc>) -> Result<PathBuf, String> {
    std::fs::create_dir_all(&schedule.dir)
        .map_err(|e| format!("backup folder {}: {e}", schedule.dir.display()))?;
    let path = schedule.dir.join(name(at));
    db.backup_to(&path).await.map_err(|e| e.to_string())?;
    prune(&schedule.dir, schedule.keep)
        .map_err(|e| format!("pruning {}: {e}", schedule.dir.display()))?;
    Ok(path)
}

/// Deletes all but the newest `keep` of this program's copies in `dir`;
/// the paths deleted.
pub fn prune(dir: &Path, keep: usize) -> std::io::Result<Vec<PathBuf>> {
    let mut ours: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_ours(p))
        .collect();
    ours.sort();
    let excess = ours.len().saturating_sub(keep);
    let old: Vec<PathBuf> = ours.into_iter().take(excess).collect();
    for p in &old {
        std::fs::remove_file(p)?;
    }
    Ok(old)
}

/// Takes a copy every `schedule.every` until the program stops; a failed
/// copy is logged and tried again next time.
pub async fn run(db: Db, schedule: Schedule) {
    loop {
        tokio::time::sleep(schedule.every).await;
        match take(&db, &schedule, Utc::now()).await {
            Ok(path) => tracing::info!("backup written: {}", path.display()),
            Err(e) => tracing::warn!("backup failed: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_are_a_number_and_a_unit_of_a_minute_or_more() {
        assert_eq!(parse_every("24h"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_every("30m"), Ok(Duration::from_secs(1_800)));
        assert_eq!(parse_every("7d"), Ok(Duration::from_secs(604_800)));
        assert_eq!(parse_every("90s"), Ok(Duration::from_secs(90)));
        for bad in ["", "h", "24", "24x", "10s", "-1h", "1.5h"] {
            assert!(parse_every(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_sort_by_age() {
        let a = name("2026-11-24T09:00:00Z".parse().unwrap());
        let b = name("2026-11-25T08:59:59.5Z".parse().unwrap());
        assert_eq!(a, "boneyard-20261124T090000.000Z.db");
        assert!(a < b);
    }
}
