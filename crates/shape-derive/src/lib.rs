//! `#[derive(FromJs)]` for the binding's options shapes: a struct declared
//! once (its fields give napi-derive's `index.d.ts` interface) gets its
//! reader from the same fields, so no field is written twice.
//!
//! The reader (`impl crate::binding::shape::FromJs`) takes a plain object
//! and reads each field, in order, by its own type's `FromJs` from the
//! property napi-derive names it (`max_chars` → `maxChars`), naming it
//! `name.maxChars` in an error.

use convert_case::{Case, Casing};
use proc_macro::TokenStream;
use quote::quote;
use syn::ext::IdentExt;
use syn::{parse_macro_input, Data, DeriveInput, Fields};

#[proc_macro_derive(FromJs)]
pub fn derive_from_js(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let name = &input.ident;
    let fields = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(fields) => &fields.named,
            _ => return error(name, "FromJs needs a struct with named fields"),
        },
        _ => return error(name, "FromJs needs a struct with named fields"),
    };
    let reads = fields.iter().filter_map(|field| {
        let ident = field.ident.as_ref()?;
        let key = camel_case(ident);
        let label = format!(".{key}");
        Some(quote! {
            #ident: crate::binding::shape::FromJs::from_js(
                object.get(#key)?,
                &format_args!("{}{}", name, #label),
            )?,
        })
    });
    quote! {
        impl crate::binding::shape::FromJs for #name {
            fn from_js(
                value: crate::binding::Js<'_>,
                name: &dyn ::std::fmt::Display,
            ) -> ::std::result::Result<Self, crate::binding::Failure> {
                let object = value.object(name)?;
                ::std::result::Result::Ok(#name { #(#reads)* })
            }
        }
    }
    .into()
}

fn error(name: &syn::Ident, message: &str) -> TokenStream {
    syn::Error::new(name.span(), message)
        .to_compile_error()
        .into()
}

/// The JS property name napi-derive gives a field, by its own rule
/// (napi-derive-backend's `to_case`: leading `_` dropped, then
/// `convert_case`'s camel case): `max_entry_chars` → `maxEntryChars`.
fn camel_case(field: &syn::Ident) -> String {
    field
        .unraw()
        .to_string()
        .trim_start_matches('_')
        .to_case(Case::Camel)
}

#[cfg(test)]
mod tests {
    use super::camel_case;
    use proc_macro2::Span;
    use syn::Ident;

    #[test]
    fn field_names_are_camel_case_as_napi_derive_writes_them() {
        let name = |text: &str| camel_case(&Ident::new(text, Span::call_site()));
        assert_eq!(name("max_entry_chars"), "maxEntryChars");
        assert_eq!(name("folder"), "folder");
        assert_eq!(name("from_openclaw"), "fromOpenclaw");
        assert_eq!(
            camel_case(&Ident::new_raw("match", Span::call_site())),
            "match"
        );
    }
}
