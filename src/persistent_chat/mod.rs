//! Persistent chat: perpetual log, continuity summary, injected prompt.
