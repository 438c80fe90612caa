//! Tokens (to be written).
