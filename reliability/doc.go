// Package reliability holds no code, only tests of Primeur as it runs in
// production: the real binary (built once per test run), real processes
// killed with SIGKILL or stopped with SIGTERM, real databases (a SQLite file
// and PostgreSQL), real HTTP and SMTP. They prove what PRODUCT §11, §14 and §17
// promise when things go wrong: a killed import or invoice run leaves
// nothing half-written and finishes after a restart, replicas on one
// database do each piece of work once, and a stop lets requests in flight
// finish. docs/SECURITY.md ("Reliability") says what each test proves.
// Every test and engine subtest runs in parallel with the others: each
// has its own data directory, database, ports and mail server, and
// spends most of its time waiting on its processes.
package reliability
