package schema

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"primeur/core/store"
)

// familiesAndUnits is migration 46 (issue 39, a catalogue that grows):
//
//   - families: the families product types belong to (DFC: the top
//     concepts of the product types' taxonomy), by id, in the order the
//     interface lists them.
//   - products.unit takes the units of need of every family: kg, l (litre),
//     un (pièce), douzaine, botte, barquette, bouteille, pot.
//   - products.family_id (the type's family), vat_rate (its VAT rate in
//     hundredths of a percent, 550 for the food of art. 278-0 bis A CGI),
//     dfc_type (the DFC product type it maps to, "" for none),
//     retired_at (when an administrator retired it: its needs stay, no new
//     one is taken; NULL while in use) and merged_into (the type it was
//     merged into, its name then found as that type's).
//   - The 60 products of version 45, fruit and vegetables, get their
//     family; every other column's default is theirs.
//
// SQLite cannot change a CHECK in place, and products is the parent of a
// dozen tables' foreign keys, so that a rebuild (which needs foreign keys
// off, outside any transaction) is out of reach of a migration: the CHECK
// is rewritten in the table's stored definition (PRAGMA writable_schema),
// the way SQLite's documentation gives for a change that touches no stored
// row (https://sqlite.org/lang_altertable.html, "Making Other Kinds Of
// Table Schema Changes"): every row that held before holds after, the
// list only grows. PostgreSQL drops the constraint and adds the new one.
func familiesAndUnits(ctx context.Context, tx *sql.Tx, d store.Dialect) error {
	fail := func(err error) error { return fmt.Errorf("schema: migration 46: %w", err) }
	const oldCheck = `CHECK (unit IN ('kg', 'un'))`
	const newCheck = `CHECK (unit IN ('kg', 'l', 'un', 'douzaine', 'botte', 'barquette', 'bouteille', 'pot'))`
	if d == store.Postgres {
		for _, q := range []string{
			`ALTER TABLE products DROP CONSTRAINT products_unit_check`,
			`ALTER TABLE products ADD CONSTRAINT products_unit_check ` + newCheck,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fail(err)
			}
		}
	} else {
		var def string
		if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'products'`).Scan(&def); err != nil {
			return fail(err)
		}
		if strings.Count(def, oldCheck) != 1 {
			return fail(fmt.Errorf("products: no %s in %q", oldCheck, def))
		}
		var version int64
		if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
			return fail(err)
		}
		for _, q := range []string{
			`PRAGMA writable_schema = ON`,
			`UPDATE sqlite_schema SET sql = '` + strings.ReplaceAll(strings.Replace(def, oldCheck, newCheck, 1), `'`, `''`) +
				`' WHERE type = 'table' AND name = 'products'`,
			fmt.Sprintf(`PRAGMA schema_version = %d`, version+1),
			`PRAGMA writable_schema = OFF`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fail(err)
			}
		}
	}
	steps := []string{
		`CREATE TABLE families (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE,
    position INTEGER NOT NULL,
    dfc_type TEXT NOT NULL DEFAULT ''
)`,
	}
	for i, f := range families46 {
		steps = append(steps, fmt.Sprintf(`INSERT INTO families (id, name, position, dfc_type) VALUES ('%s', '%s', %d, '%s')`,
			f[0], strings.ReplaceAll(f[1], `'`, `''`), i+1, f[2]))
	}
	steps = append(steps,
		// SQLite adds a column with a foreign key only with NULL as its
		// default: family_id is set below for every row, and by every
		// insert after (catalog.Add).
		`ALTER TABLE products ADD COLUMN family_id TEXT REFERENCES families (id)`,
		`ALTER TABLE products ADD COLUMN vat_rate BIGINT NOT NULL DEFAULT 550 CHECK (vat_rate >= 0)`,
		`ALTER TABLE products ADD COLUMN dfc_type TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE products ADD COLUMN retired_at BIGINT`,
		`ALTER TABLE products ADD COLUMN merged_into TEXT REFERENCES products (id)`,
		`UPDATE products SET family_id = 'legumes'`,
		`UPDATE products SET family_id = 'fruits' WHERE id IN ('`+strings.Join(fruits46, `', '`)+`')`,
		`CREATE INDEX products_family ON products (family_id)`,
	)
	for _, t := range dfcTypes46 {
		steps = append(steps, `UPDATE products SET dfc_type = '`+t[1]+`' WHERE id = '`+t[0]+`'`)
	}
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fail(fmt.Errorf("%s: %w", strings.Fields(q)[0], err))
		}
	}
	return nil
}

// families46 are the families of version 46: id, name, DFC product type.
var families46 = [][3]string{
	{"fruits", "Fruits", "fruit"},
	{"legumes", "Légumes", "vegetable"},
	{"produits-laitiers", "Produits laitiers", "dairy-product"},
	{"fromages", "Fromages", "mature-cheese"},
	{"viandes", "Viandes", "meat-product"},
	{"volailles", "Volailles", "poultry"},
	{"oeufs", "Œufs", "egg"},
	{"poissons", "Poissons et fruits de mer", "fishery-product"},
	{"epicerie", "Épicerie", "local-grocery-store"},
	{"boulangerie", "Boulangerie", "bakery"},
	{"boissons", "Boissons", "drink"},
	{"autres", "Autres produits", "inedible"},
}

// fruits46 are the fruits among the 60 products of version 45; the others
// are vegetables.
var fruits46 = []string{
	"pomme", "clementine", "melon", "peche", "nectarine", "poire", "fraise", "kiwi", "raisin", "abricot", "cerise",
	"prune", "mirabelle", "framboise", "myrtille", "groseille", "figue", "pasteque", "coing", "noix", "chataigne",
}

// dfcTypes46 are the DFC product types of the 60 products of version 45.
var dfcTypes46 = [][2]string{
	{"pomme-de-terre", "potato"}, {"tomate", "tomato"}, {"pomme", "apples"}, {"carotte", "carrot"},
	{"clementine", "clementine"}, {"courgette", "courgette"}, {"melon", "melon"}, {"peche", "peach"},
	{"nectarine", "nectarine"}, {"oignon", "onion"}, {"laitue", "lettuce"}, {"poire", "pear"}, {"poireau", "leek"},
	{"endive", "endive"}, {"chou-fleur", "cauliflower"}, {"concombre", "cucumber"}, {"fraise", "strawberry"},
	{"kiwi", "kiwi"}, {"raisin", "grape"}, {"abricot", "apricot"}, {"cerise", "cherry"}, {"prune", "plum"},
	{"mirabelle", "plum"}, {"framboise", "raspberry"}, {"myrtille", "blueberry"}, {"groseille", "currant"},
	{"figue", "fig"}, {"pasteque", "fruit"}, {"coing", "quince"}, {"noix", "walnut"}, {"chataigne", "chestnut"},
	{"rhubarbe", "rhubarb"}, {"haricot-vert", "bean"}, {"poivron", "pepper"}, {"aubergine", "eggplant"},
	{"brocoli", "broccoli-cabbage"}, {"chou-vert", "smooth-cabbage"}, {"chou-rouge", "red-cabbage"},
	{"chou-de-bruxelles", "brussels-sprouts"}, {"chou-kale", "kale-cabbage"}, {"radis", "radish"},
	{"betterave", "beetroot"}, {"celeri-rave", "celeriac"}, {"navet", "turnip"}, {"panais", "parsnip"},
	{"topinambour", "jerusalem-artichoke"}, {"potiron", "pumpkin"}, {"butternut", "butternut"},
	{"epinard", "spinach"}, {"blette", "chard"}, {"mache", "corn-salad"}, {"fenouil", "fennel"},
	{"artichaut", "artichoke"}, {"asperge", "asparagus"}, {"petit-pois", "vegetable"}, {"ail", "garlic"},
	{"echalote", "shallot"}, {"champignon", "paris-mushroom"}, {"persil", "parsley"}, {"basilic", "basil"},
}
