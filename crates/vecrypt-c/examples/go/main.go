// A Go program calling libvecrypt through cgo: a Kuznyechik-MGM round trip with a tag
// check, and an Aigis-enc-2 key agreement. It prints "ok" and exits 0 when every step
// matches, 1 otherwise. Build flags come from pkg-config (`.ci/test-c` sets
// PKG_CONFIG_PATH to a staging prefix).
package main

/*
#cgo pkg-config: vecrypt
#include <stdlib.h>
#include "vecrypt.h"
*/
import "C"

import (
	"bytes"
	"fmt"
	"os"
	"unsafe"
)

func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

func seal(name string, key, nonce, ad, msg []byte) ([]byte, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	out := make([]byte, len(msg)+C.VECRYPT_AEAD_ABYTES)
	var outLen C.size_t
	if C.vecrypt_aead_encrypt(cname, ptr(out), &outLen, ptr(msg), C.size_t(len(msg)),
		ptr(ad), C.size_t(len(ad)), ptr(nonce), C.size_t(len(nonce)),
		ptr(key), C.size_t(len(key))) != 0 {
		return nil, fmt.Errorf("%s: encryption refused", name)
	}
	return out[:outLen], nil
}

func open(name string, key, nonce, ad, sealed []byte) ([]byte, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	if len(sealed) < C.VECRYPT_AEAD_ABYTES {
		return nil, fmt.Errorf("%s: input shorter than a tag", name)
	}
	out := make([]byte, len(sealed)-C.VECRYPT_AEAD_ABYTES)
	var outLen C.size_t
	if C.vecrypt_aead_decrypt(cname, ptr(out), &outLen, ptr(sealed), C.size_t(len(sealed)),
		ptr(ad), C.size_t(len(ad)), ptr(nonce), C.size_t(len(nonce)),
		ptr(key), C.size_t(len(key))) != 0 {
		return nil, fmt.Errorf("%s: authentication failed", name)
	}
	return out[:outLen], nil
}

func kemAgree(name string) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var pkLen, skLen, ctLen, ssLen C.size_t
	if C.vecrypt_kem_sizes(cname, &pkLen, &skLen, &ctLen, &ssLen) != 0 {
		return fmt.Errorf("%s: unknown", name)
	}
	pk, sk := make([]byte, pkLen), make([]byte, skLen)
	ct, ss1, ss2 := make([]byte, ctLen), make([]byte, ssLen), make([]byte, ssLen)
	if C.vecrypt_kem_keypair(cname, ptr(pk), ptr(sk)) != 0 ||
		C.vecrypt_kem_enc(cname, ptr(ct), ptr(ss1), ptr(pk)) != 0 ||
		C.vecrypt_kem_dec(cname, ptr(ss2), ptr(ct), ptr(sk)) != 0 {
		return fmt.Errorf("%s: a KEM call failed", name)
	}
	if !bytes.Equal(ss1, ss2) {
		return fmt.Errorf("%s: the two shared secrets differ", name)
	}
	return nil
}

func run() error {
	key := bytes.Repeat([]byte{0x42}, C.VECRYPT_KUZNYECHIKMGM_KEYBYTES)
	nonce := make([]byte, C.VECRYPT_KUZNYECHIKMGM_NPUBBYTES)
	msg, ad := []byte("attack at dawn"), []byte("header")
	sealed, err := seal("kuznyechik-mgm", key, nonce, ad, msg)
	if err != nil {
		return err
	}
	back, err := open("kuznyechik-mgm", key, nonce, ad, sealed)
	if err != nil {
		return err
	}
	if !bytes.Equal(back, msg) {
		return fmt.Errorf("the round trip changed the message")
	}
	sealed[0] ^= 1
	if _, err := open("kuznyechik-mgm", key, nonce, ad, sealed); err == nil {
		return fmt.Errorf("a changed ciphertext was accepted")
	}
	return kemAgree("aigis-enc-2")
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("ok")
}
