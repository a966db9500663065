//go:build !unix

package store

import "errors"

// Without flock(2), opening a database takes no lock and a restore cannot
// tell whether a daemon uses the database: it refuses, and the database
// file is replaced by hand with every Primeur process stopped.

func shareDir(string) (func(), error) { return func() {}, nil }

func lockDir(string) (func(), error) {
	return nil, errors.New("impossible de savoir sur ce système si un démon utilise la base : arrêtez-le et copiez le fichier à la main")
}
