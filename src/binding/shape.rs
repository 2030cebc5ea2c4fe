//! Each JavaScript options shape written once: a struct with
//! `#[napi(object, object_to_js = false, object_from_js = false)]` and
//! `#[derive(FromJs)]` (`crates/shape-derive`) gives both the `index.d.ts`
//! interface (napi-derive's typegen, from the fields' Rust types) and its
//! reader ([`FromJs`], field by field, a wrong type a `TypeError` naming
//! `options.theField`).
//!
//! An export takes such a shape as an [`arg`] type of the same name: the
//! raw JS value, read only when the export's body asks, so that a Promise
//! export rejects with the error (as `promise::spawn` promises) rather than
//! throwing it from napi-rs's conversion.

use std::fmt::Display;
use std::path::PathBuf;

pub use openclaw_context_shape_derive::FromJs;

use super::text::Utf16String;
use super::{Failure, Js};

/// A Rust value read from a JS value, `name` naming it in an error.
pub trait FromJs: Sized {
    /// Whether an optional field that is `null` is absent, as `undefined`
    /// is. Not where `null` could mean something else ([`NotNull`], a
    /// [`Limit`]): there it is a `TypeError`.
    const NULL_IS_ABSENT: bool = true;

    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure>;
}

/// `undefined` (and `null`, but for a [`NotNull`]) is absent; anything
/// else is read as `T`.
impl<T: FromJs> FromJs for Option<T> {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        if value.is_undefined()? || (T::NULL_IS_ABSENT && value.is_nullish()?) {
            return Ok(None);
        }
        T::from_js(value, name).map(Some)
    }
}

/// A value whose `null` is not absent but a `TypeError` (see
/// [`FromJs::NULL_IS_ABSENT`]): a flag such as `create`, whose `null` could
/// be meant as `false`.
pub struct NotNull<T>(pub T);

impl<T> NotNull<T> {
    /// The value of an optional field.
    pub fn value(field: Option<NotNull<T>>) -> Option<T> {
        field.map(|NotNull(value)| value)
    }
}

impl<T: FromJs> FromJs for NotNull<T> {
    const NULL_IS_ABSENT: bool = false;

    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        T::from_js(value, name).map(NotNull)
    }
}

/// A number that limits something (a count, a size, a budget), where
/// `null` could be meant as "none" or "no cap": a `TypeError`. The caller
/// checks its range.
pub type Limit = NotNull<f64>;

impl FromJs for bool {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        value.boolean(name)
    }
}

impl FromJs for f64 {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        value.number(name)
    }
}

/// A string's UTF-16 code units, exactly (lone surrogates included).
impl FromJs for Utf16String {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        value.string(name).map(Utf16String::from)
    }
}

/// A path: valid Unicode, not empty, no NUL.
impl FromJs for PathBuf {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        value.path(name).map(PathBuf::from)
    }
}

/// An array (at most `MAX_ARRAY_ITEMS`), each item named `name[index]`.
impl<T: FromJs> FromJs for Vec<T> {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        value
            .array(name)?
            .into_iter()
            .enumerate()
            .map(|(index, item)| T::from_js(item, &format_args!("{name}[{index}]")))
            .collect()
    }
}

/// Strings as the UTF-16 units the core takes (a list of patterns, ids,
/// headings).
pub fn units(texts: Vec<Utf16String>) -> Vec<Vec<u16>> {
    texts.iter().map(|text| text.to_vec()).collect()
}

/// The exports' arguments, unread: each type is named as the TypeScript
/// type its value is read as (napi-derive's typegen names an argument's
/// type by its last path segment: `arg::ChatStoreOpenOptions` is
/// `ChatStoreOpenOptions`, `arg::Utf16String` is `string`), holds the JS
/// value as given, and reads it on `read` (see the module's doc).
pub mod arg {
    use std::fmt::Display;
    use std::marker::PhantomData;

    use napi::bindgen_prelude::FromNapiValue;
    use napi::sys;

    use super::FromJs;
    use crate::binding::{Failure, Js};

    /// The argument types; `read` for those with a [`FromJs`] type.
    macro_rules! unread {
        ($($name:ident $(=> $read:ty)?),* $(,)?) => {$(
            #[doc = concat!("A JS argument typed `", stringify!($name), "` in `index.d.ts`.")]
            pub struct $name<'scope>(Js<'scope>);

            impl FromNapiValue for $name<'_> {
                unsafe fn from_napi_value(
                    env: sys::napi_env,
                    value: sys::napi_value,
                ) -> napi::Result<Self> {
                    Ok($name(Js::given(env, value)))
                }
            }

            impl<'scope> $name<'scope> {
                /// The value as given, for a reader of its own.
                pub fn js(&self) -> Js<'scope> {
                    self.0
                }
            }

            $(
                impl $name<'_> {
                    /// The value, read and checked; `name` names it in an error.
                    pub fn read(self, name: impl Display) -> Result<$read, Failure> {
                        <$read as FromJs>::from_js(self.0, &name)
                    }
                }
            )?
        )*};
    }

    unread! {
        Utf16String => crate::binding::text::Utf16String,
        PathBuf => std::path::PathBuf,
        Number => f64,
        ChatStoreOpenOptions => crate::binding::params::ChatStoreOpenOptions,
        ChatStoreInspectOptions => crate::binding::params::ChatStoreInspectOptions,
        ChatStoreAppendOptions => crate::binding::params::ChatStoreAppendOptions,
        ChatStoreBackupOptions => crate::binding::params::ChatStoreBackupOptions,
        ChatStoreRestoreOptions => crate::binding::params::ChatStoreRestoreOptions,
        ChatStoreExportOptions => crate::binding::params::ChatStoreExportOptions,
        ChatStoreForgetRule => crate::binding::params::ChatStoreForgetRule,
        ChatStoreForgetOptions => crate::binding::params::ChatStoreForgetOptions,
        ChatStoreImportOptions => crate::binding::params::ChatStoreImportOptions,
        ChatStoreSearchOptions => crate::binding::params::ChatStoreSearchOptions,
        PersistentChatReadOptions => crate::binding::params::PersistentChatReadOptions,
        PersistentChatSearchOptions => crate::PersistentChatSearchOptions,
        PersistentChatWindowAt => crate::PersistentChatWindowAt,
        SecretMaskerOptions => crate::binding::mask::SecretMaskerOptions,
        ChatStoreSummaryParams => crate::binding::params::ChatStoreSummaryParams,
        PersistentChatLogEntry => crate::binding::persistent_chat::LoggedEntry,
        // Read by hand (`persistent_chat::summary_params`, `prompt_params`):
        // fields under aliases, a path not looked at when its data is given.
        ContinuitySummaryParams,
        InjectedPromptParams,
    }

    /// A JS array argument read as `Vec<T>` (`Array<T>` in `index.d.ts`).
    pub struct Vec<'scope, T>(Js<'scope>, PhantomData<T>);

    impl<T> FromNapiValue for Vec<'_, T> {
        unsafe fn from_napi_value(
            env: sys::napi_env,
            value: sys::napi_value,
        ) -> napi::Result<Self> {
            Ok(Vec(Js::given(env, value), PhantomData))
        }
    }

    impl<T: FromJs> Vec<'_, T> {
        /// The items, read and checked; `name` names the array in an error.
        pub fn read(self, name: impl Display) -> Result<std::vec::Vec<T>, Failure> {
            <std::vec::Vec<T> as FromJs>::from_js(self.0, &name)
        }
    }
}
