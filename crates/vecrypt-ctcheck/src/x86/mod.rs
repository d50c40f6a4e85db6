//! The x86-64 parts of the checker: the only code here that needs `unsafe`.

pub(crate) mod client_request;
