package commands

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"primeur/core/config"
)

// Every command that works on the database says which one on standard
// error once it has opened it (a database that cannot be opened is named
// by the refusal, one line), so that an administrator who pointed it at
// the wrong data directory or server sees it at once:
//
//	base de données : SQLite /var/lib/primeur/primeur.db
//	base de données : PostgreSQL, serveur db.interne:5432, base primeur, utilisateur primeur
//
// never the password. serve logs the same at start, with its version.

// databaseLine is that line, without its end of line.
func databaseLine(cfg *config.Config) string {
	return "base de données : " + describeDatabase(cfg)
}

// describeDatabase names the configured database: the SQLite file's
// absolute path, or PostgreSQL's server (host and port), database, user
// and schema (search_path) when the URL sets one — without the password
// nor the other options.
func describeDatabase(cfg *config.Config) string {
	if cfg.DatabaseURL == "" {
		path := cfg.SQLitePath()
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return "SQLite " + path
	}
	u, err := url.Parse(cfg.DatabaseURL)
	if err != nil {
		return "PostgreSQL"
	}
	q := u.Query()
	host := u.Hostname()
	if host == "" {
		host = q.Get("host")
	}
	if host == "" {
		host = "localhost"
	}
	port := u.Port()
	if port == "" {
		port = q.Get("port")
	}
	if port == "" {
		port = "5432"
	}
	user := u.User.Username()
	if user == "" {
		user = q.Get("user")
	}
	database := strings.TrimPrefix(u.Path, "/")
	if database == "" {
		database = q.Get("dbname")
	}
	if database == "" {
		database = user
	}
	parts := []string{fmt.Sprintf("serveur %s", hostPort(host, port))}
	if database != "" {
		parts = append(parts, "base "+database)
	}
	if user != "" {
		parts = append(parts, "utilisateur "+user)
	}
	if sp := q.Get("search_path"); sp != "" {
		parts = append(parts, "schéma "+sp)
	}
	return "PostgreSQL, " + strings.Join(parts, ", ")
}

func hostPort(host, port string) string {
	if strings.HasPrefix(host, "/") {
		return host + " (port " + port + ")" // a Unix socket's directory
	}
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}

// announceDB prints databaseLine on standard error, unless the command
// logs it (serve).
func (a *app) announceDB() {
	if !a.dbLogged {
		fmt.Fprintln(a.errOut, databaseLine(a.cfg))
	}
}
