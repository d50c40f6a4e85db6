//! The one table of the CPU features each vecrypt kernel needs.
//!
//! A kernel is named once here with its architecture and the features it enables. Two
//! macros read the table, so the features are never written twice:
//! - `#[kernel(NAME)]` on a function becomes `#[target_feature(enable = "<features>")]`;
//! - `kernel_table!()` expands, inside `vecrypt::cpu`, to one `Kernel` constant per entry
//!   and the list `ALL` of them, from which the run-time checks and backend lists are built.
//!
//! The feature names are those of `#[target_feature]`; `vecrypt::cpu` rejects, at compile
//! time, a name it cannot detect.

#![forbid(unsafe_code)]

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// `(name, architecture, features)`: every kernel of the library.
const TABLE: &[(&str, &str, &str)] = &[
    // Secret wiping with vector stores.
    ("WIPE_AVX2", "x86_64", "avx2"),
    // uBlock.
    ("UBLOCK_NIBBLES_SSSE3", "x86_64", "ssse3"),
    ("UBLOCK_NIBBLES_AVX2", "x86_64", "avx2"),
    (
        "UBLOCK_WIDE_NIBBLES_AVX512",
        "x86_64",
        "avx2,avx512f,avx512bw,avx512vl,avx512vbmi",
    ),
    ("UBLOCK_PAIRED_AVX2", "x86_64", "avx2"),
    ("UBLOCK_PLANES_AVX2", "x86_64", "avx2"),
    (
        "UBLOCK_PLANES_AVX512",
        "x86_64",
        "avx512f,avx512bw,avx512vl",
    ),
    ("UBLOCK_SLICED_AVX2", "x86_64", "avx2"),
    ("UBLOCK_SLICED_AVX2_GFNI", "x86_64", "avx2,gfni"),
    (
        "UBLOCK_SLICED_AVX512",
        "x86_64",
        "avx512f,avx512bw,avx512vl,avx512vbmi,gfni",
    ),
    // uBlock on AArch64 Advanced SIMD: TBL does the nibble shuffles and byte gathers.
    ("UBLOCK_NEON", "aarch64", "neon"),
    // Kuznyechik.
    ("KUZNYECHIK_AVX2", "x86_64", "avx2"),
    ("KUZNYECHIK_AVX2_GFNI", "x86_64", "avx2,gfni"),
    (
        "KUZNYECHIK_AVX512",
        "x86_64",
        "avx512f,avx512bw,avx512vl,avx512vbmi,gfni",
    ),
    (
        "KUZNYECHIK_MGM_AVX512",
        "x86_64",
        "avx512f,avx512bw,avx512vl,avx512vbmi,gfni,vpclmulqdq",
    ),
    ("KUZNYECHIK_MGM_CLMUL", "x86_64", "sse2,pclmulqdq"),
    (
        "KUZNYECHIK_MGM_COUNTERS_AVX512",
        "x86_64",
        "avx512f,avx512bw",
    ),
    (
        "KUZNYECHIK_MGM_VPCLMUL",
        "x86_64",
        "sse2,pclmulqdq,avx512f,avx512bw,vpclmulqdq",
    ),
    ("KUZNYECHIK_NEON", "aarch64", "neon"),
    // MGM's products on the 64-bit PMULL, which the run-time detection reports with `aes`.
    ("KUZNYECHIK_MGM_PMULL", "aarch64", "neon,aes"),
    // AES.
    ("AES_NI", "x86_64", "sse2,ssse3,sse4.1,aes,pclmulqdq"),
    (
        "AES_VAES256",
        "x86_64",
        "ssse3,sse4.1,aes,pclmulqdq,avx,avx2,vaes,vpclmulqdq",
    ),
    (
        "AES_VAES512",
        "x86_64",
        "ssse3,sse4.1,aes,pclmulqdq,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl",
    ),
    // The ARMv8 cryptography extension: `aes` is AESE/AESD/AESMC/AESIMC together with
    // PMULL (the 64-bit polynomial multiply GHASH uses), in `#[target_feature]` as in the
    // run-time detection, which reports it only when the CPU has both.
    ("AES_ARMV8", "aarch64", "neon,aes"),
    // Aigis-enc.
    ("AIGIS_AVX2", "x86_64", "avx2,bmi1,bmi2,popcnt"),
    (
        "AIGIS_AVX512",
        "x86_64",
        "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2",
    ),
    // The lanes' sampling counts accepted values with POPCNT (every CPU of the backends
    // above has it; without the feature the count compiles to a dozen shifts and masks).
    ("AIGIS_LANES_AVX2", "x86_64", "avx2,popcnt"),
    (
        "AIGIS_LANES_AVX512",
        "x86_64",
        "avx2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2",
    ),
    ("AIGIS_NTT_AVX512", "x86_64", "avx512f,avx512bw"),
    ("AIGIS_KECCAK_AVX2", "x86_64", "avx2"),
    ("AIGIS_KECCAK_AVX512F", "x86_64", "avx512f"),
    ("AIGIS_KECCAK_AVX512VL", "x86_64", "avx512f,avx512vl"),
    ("AIGIS_KECCAK_AVX512", "x86_64", "avx2,avx512f,avx512vl"),
    ("AIGIS_SM3_AVX2", "x86_64", "avx2"),
    ("AIGIS_SM3_AVX512", "x86_64", "avx2,avx512f,avx512bw"),
    ("AIGIS_DSP", "arm", "dsp"),
    // Aigis-enc on AArch64: the NEON backend, and its build whose Keccak uses the SHA3
    // extension (EOR3, RAX1, XAR, BCAX) when the CPU has it.
    ("AIGIS_NEON", "aarch64", "neon"),
    ("AIGIS_KECCAK_SHA3", "aarch64", "neon,sha3"),
];

fn entry(name: &str) -> Option<&'static (&'static str, &'static str, &'static str)> {
    TABLE.iter().find(|(n, _, _)| *n == name)
}

fn error(msg: &str, span: Span) -> TokenStream {
    let mut args = TokenStream::new();
    args.extend([TokenTree::Literal(Literal::string(msg))]);
    let mut out: Vec<TokenTree> = vec![
        TokenTree::Ident(Ident::new("compile_error", span)),
        TokenTree::Punct(Punct::new('!', Spacing::Alone)),
        TokenTree::Group(Group::new(Delimiter::Parenthesis, args)),
        TokenTree::Punct(Punct::new(';', Spacing::Alone)),
    ];
    for t in &mut out {
        t.set_span(span);
    }
    out.into_iter().collect()
}

/// `#[kernel(NAME)]`: enables the features of the table's entry `NAME` on the function.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = attr.into_iter().collect();
    let (name, span) = match tokens.as_slice() {
        [TokenTree::Ident(i)] => (i.to_string(), i.span()),
        _ => {
            return error(
                "expected #[kernel(NAME)] with a name of the kernel table",
                Span::call_site(),
            );
        }
    };
    let Some((_, _, features)) = entry(&name) else {
        return error(&format!("no kernel `{name}` in the kernel table"), span);
    };
    let mut inner = TokenStream::new();
    inner.extend([
        TokenTree::Ident(Ident::new("enable", span)),
        TokenTree::Punct(Punct::new('=', Spacing::Alone)),
        TokenTree::Literal(Literal::string(features)),
    ]);
    let mut attr_body = TokenStream::new();
    attr_body.extend([
        TokenTree::Ident(Ident::new("target_feature", span)),
        TokenTree::Group(Group::new(Delimiter::Parenthesis, inner)),
    ]);
    let mut out = TokenStream::new();
    out.extend([
        TokenTree::Punct(Punct::new('#', Spacing::Alone)),
        TokenTree::Group(Group::new(Delimiter::Bracket, attr_body)),
    ]);
    out.extend(item);
    out
}

/// `kernel_table!()`: one `pub const NAME: Kernel = Kernel::new("NAME", "arch", "features");`
/// per entry, and `pub const ALL: &[Kernel]` listing them. Expanded inside `vecrypt::cpu`.
#[proc_macro]
pub fn kernel_table(input: TokenStream) -> TokenStream {
    if !input.is_empty() {
        return error("kernel_table!() takes no arguments", Span::call_site());
    }
    let mut src = String::new();
    for (name, arch, features) in TABLE {
        src.push_str(&format!(
            "#[doc = \"`{features}` on {arch}.\"]\npub const {name}: Kernel = Kernel::new({name:?}, {arch:?}, {features:?});\n"
        ));
    }
    src.push_str("/// Every kernel of the table.\npub const ALL: &[Kernel] = &[");
    for (name, _, _) in TABLE {
        src.push_str(name);
        src.push(',');
    }
    src.push_str("];\n");
    src.parse().expect("the table expands to valid items")
}
