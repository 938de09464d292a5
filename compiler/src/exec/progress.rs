//! A progress bar for long conversions (indicatif), drawn on stderr only when stderr is a
//! terminal and the job is large; otherwise hidden, so pipes, logs and tests never see it.
//!
//! Invariant: a [`Progress`] never writes anything unless [`Progress::visible`]; all methods are
//! cheap no-ops on a hidden bar. The bar is cleared when finished or dropped.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Jobs smaller than this many elements never show a bar.
pub const MIN_ELEMENTS: u64 = 1 << 22;

/// A possibly hidden progress bar counting elements.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    visible: bool,
}

impl Progress {
    /// A bar over `total` elements with a label, shown iff stderr is a terminal and `total` is
    /// at least [`MIN_ELEMENTS`].
    pub fn for_elements(total: u64, label: &str) -> Progress {
        let show = total >= MIN_ELEMENTS && std::io::stderr().is_terminal();
        Progress::new(total, label, show)
    }

    /// A bar that is drawn on stderr iff `show`.
    pub fn new(total: u64, label: &str, show: bool) -> Progress {
        if !show {
            return Progress {
                bar: ProgressBar::hidden(),
                visible: false,
            };
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{msg} [{bar:40}] {human_pos}/{human_len} elements ({per_sec}, eta {eta})",
        )
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        let bar = bar.with_style(style).with_message(label.to_string());
        Progress { bar, visible: true }
    }

    /// A bar that never draws.
    pub fn hidden() -> Progress {
        Progress::new(0, "", false)
    }

    pub fn visible(&self) -> bool {
        self.visible
    }

    /// Advances by `n` elements.
    pub fn inc(&self, n: u64) {
        if self.visible {
            self.bar.inc(n);
        }
    }

    /// Changes the label (e.g. the phase: reading, converting, writing).
    pub fn set_label(&self, label: &str) {
        if self.visible {
            self.bar.set_message(label.to_string());
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if self.visible {
            self.bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_or_non_tty_jobs_are_hidden() {
        let p = Progress::for_elements(10, "converting");
        assert!(!p.visible());
        p.inc(5);
        p.finish();
        assert!(!Progress::hidden().visible());
    }
}
