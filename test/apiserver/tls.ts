/**
 * A self-signed certificate for 127.0.0.1 and localhost (valid 2000-2199), for tests only: the server only
 * listens on loopback. kubectl sends bearer tokens and impersonation headers only over TLS, so the server
 * answers both HTTP and HTTPS on its port and the kubeconfigs it writes point at https with this as the CA.
 */
export const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBlTCCATygAwIBAgIBATAKBggqhkjOPQQDAjAZMRcwFQYDVQQDDA50ZXN0LWFw
aXNlcnZlcjAgFw0wMDAxMDEwMDAwMDBaGA8yMTk5MTIzMTAwMDAwMFowGTEXMBUG
A1UEAwwOdGVzdC1hcGlzZXJ2ZXIwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATa
oQwQ/R4D1AZm6TN2o+Cs8/iQuD4YCzSdQk891cRZXR9zr3fNot0MOQYZf/DPzq4W
XMlV+Ol0EZxhmrRhb4W9o3MwcTAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3Qw
DwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0lBAwwCgYIKwYB
BQUHAwEwHQYDVR0OBBYEFA2qHFnNilY05BtoGd86IOVXDDANMAoGCCqGSM49BAMC
A0cAMEQCIFX4/07oHgZ15E77Yxpzuw7hWQ+QT/ytK6lBE9NV8JnZAiBSl1gUW/Ey
hgguDYET2oKZbrTYHd9PdS8K37VCbiQ7cA==
-----END CERTIFICATE-----
`;

export const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgjapQ9hi5quowLNTr
5NOqnCAuRArMxXYdEBuGAJB1My6hRANCAATaoQwQ/R4D1AZm6TN2o+Cs8/iQuD4Y
CzSdQk891cRZXR9zr3fNot0MOQYZf/DPzq4WXMlV+Ol0EZxhmrRhb4W9
-----END PRIVATE KEY-----
`;
