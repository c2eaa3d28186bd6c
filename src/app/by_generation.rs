//! Views worked out once per league generation: what a page shows that
//! costs a whole season's records to work out (the honours' feats read
//! every hand of the season) is kept in memory under the generation read
//! before it was worked out, and worked out again only once the league's
//! records change (every write raises the number, on every app server).
//! Requests that find it stale together wait for one working-out.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};

/// Most keys kept; past it they are all let go (addresses can name many
/// seasons, none of them costly to forget).
const MOST: usize = 4096;

/// Values of `V` by key, each under the generation it was worked out at.
pub struct ByGeneration<K, V> {
    kept: Mutex<HashMap<K, (i64, Arc<V>)>>,
    /// One working-out at a time per key.
    working: Mutex<HashMap<K, Arc<tokio::sync::Mutex<()>>>>,
    /// Most keys kept (see [`MOST`]).
    most: usize,
}

impl<K, V> Default for ByGeneration<K, V> {
    fn default() -> Self {
        ByGeneration::with_most(MOST)
    }
}

impl<K, V> ByGeneration<K, V> {
    /// Keeping at most `most` keys: for values large enough that
    /// [`MOST`] of them would weigh on a small server.
    pub fn with_most(most: usize) -> Self {
        ByGeneration {
            kept: Mutex::new(HashMap::new()),
            working: Mutex::new(HashMap::new()),
            most,
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<K: Eq + Hash + Clone, V> ByGeneration<K, V> {
    fn current(&self, key: &K, generation: i64, fits: &impl Fn(&V) -> bool) -> Option<Arc<V>> {
        lock(&self.kept)
            .get(key)
            .filter(|(at, v)| *at == generation && fits(v))
            .map(|(_, v)| v.clone())
    }

    /// The value last kept for `key`, whatever its generation: what a new
    /// working-out may start from.
    pub fn latest(&self, key: &K) -> Option<Arc<V>> {
        lock(&self.kept).get(key).map(|(_, v)| v.clone())
    }

    /// [`ByGeneration::get_or_work_if`] taking any value kept.
    pub async fn get_or_work<E, F>(
        &self,
        key: K,
        generation: i64,
        work: impl FnOnce() -> F,
    ) -> Result<Arc<V>, E>
    where
        F: Future<Output = Result<V, E>>,
    {
        self.get_or_work_if(key, generation, |_| true, work).await
    }

    /// The value of `key` at `generation` (read before this call, so a
    /// write in between leaves it under the older number): kept, when it
    /// `fits` (was worked out from what the caller holds), or worked out by
    /// `work` and kept.
    pub async fn get_or_work_if<E, F>(
        &self,
        key: K,
        generation: i64,
        fits: impl Fn(&V) -> bool,
        work: impl FnOnce() -> F,
    ) -> Result<Arc<V>, E>
    where
        F: Future<Output = Result<V, E>>,
    {
        if let Some(v) = self.current(&key, generation, &fits) {
            return Ok(v);
        }
        let turn = {
            let mut working = lock(&self.working);
            if working.len() > self.most {
                working.clear();
            }
            working.entry(key.clone()).or_default().clone()
        };
        let _turn = turn.lock().await;
        // Another request may have worked it out while this one waited.
        if let Some(v) = self.current(&key, generation, &fits) {
            return Ok(v);
        }
        let v = Arc::new(work().await?);
        let mut kept = lock(&self.kept);
        if kept.len() > self.most {
            kept.clear();
        }
        // A request that read an older generation may finish last: the
        // newer value stays.
        match kept.get(&key) {
            Some((at, _)) if *at > generation => {}
            _ => {
                kept.insert(key, (generation, v.clone()));
            }
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn a_value_is_worked_out_once_per_generation() {
        let kept: ByGeneration<u32, usize> = ByGeneration::default();
        let runs = AtomicUsize::new(0);
        let work = || async { Ok::<_, ()>(runs.fetch_add(1, Ordering::SeqCst) + 1) };
        assert_eq!(*kept.get_or_work(1, 7, work).await.unwrap(), 1);
        assert_eq!(*kept.get_or_work(1, 7, work).await.unwrap(), 1);
        // The league wrote: worked out again.
        assert_eq!(*kept.get_or_work(1, 8, work).await.unwrap(), 2);
        // A slow request that read the older number does not undo it.
        assert_eq!(*kept.get_or_work(1, 7, work).await.unwrap(), 3);
        assert_eq!(*kept.get_or_work(1, 8, work).await.unwrap(), 2);
        // Another key has its own.
        assert_eq!(*kept.get_or_work(2, 8, work).await.unwrap(), 4);
        // One kept from what no longer fits the caller's is worked out again.
        assert_eq!(
            *kept.get_or_work_if(2, 8, |v| *v == 4, work).await.unwrap(),
            4
        );
        assert_eq!(
            *kept.get_or_work_if(2, 8, |v| *v != 4, work).await.unwrap(),
            5
        );
    }

    #[tokio::test]
    async fn past_the_most_keys_all_are_let_go() {
        let kept: ByGeneration<u32, usize> = ByGeneration::with_most(2);
        let runs = AtomicUsize::new(0);
        let work = || async { Ok::<_, ()>(runs.fetch_add(1, Ordering::SeqCst) + 1) };
        for key in 1..=3 {
            kept.get_or_work(key, 7, work).await.unwrap();
        }
        // The bound is checked as a new key comes: the first is still kept.
        assert_eq!(*kept.get_or_work(1, 7, work).await.unwrap(), 1);
        // The fourth lets them all go.
        assert_eq!(*kept.get_or_work(4, 7, work).await.unwrap(), 4);
        assert_eq!(*kept.get_or_work(1, 7, work).await.unwrap(), 5);
    }

    #[tokio::test]
    async fn requests_that_find_it_stale_together_wait_for_one_working_out() {
        let kept: Arc<ByGeneration<u32, usize>> = Arc::default();
        let runs = Arc::new(AtomicUsize::new(0));
        let asking = (0..16).map(|_| {
            let (kept, runs) = (kept.clone(), runs.clone());
            tokio::spawn(async move {
                let work = || async {
                    // Slow enough that every request arrives meanwhile.
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    Ok::<_, ()>(runs.fetch_add(1, Ordering::SeqCst) + 1)
                };
                *kept.get_or_work(1, 7, work).await.unwrap()
            })
        });
        let got = futures_util::future::join_all(asking).await;
        assert!(got.into_iter().all(|v| v.unwrap() == 1));
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }
}
