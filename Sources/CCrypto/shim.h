/* HMAC() is deprecated in OpenSSL 3 in favour of EVP_MAC, but it is the one-shot call we need and is still supported. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
