/* serve_client: the smallest HTTP/1.1 client, for picket-serve's own tests and load bench: one
 * request a connection to 127.0.0.1:PORT, the whole answer read. Not for other servers. */
#ifndef PICKET_SERVE_CLIENT_H
#define PICKET_SERVE_CLIENT_H

/* One request (body may be NULL). The status (0 if the connection failed), and the body,
 * malloc'd and NUL-terminated, in *out (NULL if the connection failed). */
int serve_client_request(int port, const char *method, const char *path, const char *body, char **out);

#endif
