package planning

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/activity"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/limit"
	"primeur/core/store"
)

// ImportError is a cell an import did not write, with why: its quantity
// would go under what producers committed and proposed on the need, or its
// month is past. It is an entry of the result's dbErrors.
type ImportError struct {
	Product   string      `json:"product" doc:"Product name, as the catalogue spells it" example:"Tomate"`
	ProductID string      `json:"productId" doc:"Product id" example:"tomate"`
	Date      string      `json:"date" doc:"Month of the need" example:"2026-12-01"`
	Quantity  decimal.Dec `json:"quantity" doc:"Quantity the import asked for" example:"80"`
	Reserved  decimal.Dec `json:"reserved" doc:"Quantity held by commitments and pending proposals: the least the need may be" example:"120"`
	Cell      string      `json:"cell,omitempty" doc:"Cell of the file (file import only)" example:"C4"`
	Message   string      `json:"message" doc:"Why the cell was not written, in French"`
}

// ImportResult is what a file import did (PRODUCT §3 "Import result").
type ImportResult struct {
	Needs           []View             `json:"needs" doc:"Needs created or changed by the import"`
	ProductsFound   []string           `json:"productsFound" doc:"Products of the file found in the catalogue (catalogue spelling), in file order"`
	ProductsMissing []string           `json:"productsMissing" doc:"Product names of the file that are not in the catalogue, as written (the first 100, each cut to 80 characters)"`
	MissingCount    int                `json:"productsMissingCount" doc:"How many product names of the file are not in the catalogue (productsMissing lists the first 100)"`
	DBErrors        []ImportError      `json:"dbErrors" doc:"Cells not written, with the reason"`
	DBSuccesses     int                `json:"dbSuccesses" doc:"Cells applied: needs created, changed, or already at that quantity"`
	Event           activity.View      `json:"event" doc:"The need:import event recorded"`
	Changes         []ImportChange     `json:"changes" doc:"Cells that created or changed a need, with the quantity before"`
	Rounded         []ImportRounding   `json:"rounded" doc:"Kilogram quantities of more than two decimals, rounded to the hundredth (the first 100)"`
	RoundedCount    int                `json:"roundedCount" doc:"How many quantities were rounded (rounded lists the first 100)"`
	Suggestions     []ImportSuggestion `json:"suggestions" doc:"Products of the file missing from the catalogue, with the closest catalogue name"`
	Sheet           string             `json:"sheet" doc:"The sheet read, as the file names it (80 characters at most); the CSV file's name for a .csv" example:"Besoins"`
	Sheets          []string           `json:"sheets" doc:"Every sheet of the file holding a needs table, in the file's order, the one read among them: the upload's sheet field reads another" example:"[\"2026\", \"2027\"]"`
}

// ImportChange is a cell of the file that creates or changes a need.
type ImportChange struct {
	Product   string       `json:"product" doc:"Product name, as the catalogue spells it" example:"Tomate"`
	ProductID string       `json:"productId" doc:"Product id" example:"tomate"`
	Date      string       `json:"date" doc:"Month of the need" example:"2027-01-01"`
	Cell      string       `json:"cell" doc:"Cell of the file" example:"C4"`
	From      *decimal.Dec `json:"from" nullable:"true" doc:"The quantity before; null when the need is new" example:"80"`
	To        decimal.Dec  `json:"to" doc:"The quantity imported" example:"120"`
}

// ProgressFunc hears of an import's progress: done of total months sent to
// the database, the last one being month. It is called inside the import's
// transaction, once per month, in the file's order.
type ProgressFunc func(done, total int, month string)

// ImportOptions tune ImportXLSX.
type ImportOptions struct {
	// DryRun applies the import and rolls it back: the result says what
	// would happen, the database is left as it was.
	DryRun bool
	// Progress, when set, is called as each month's changes and new needs
	// have gone to the database (applyMonths).
	Progress ProgressFunc
	// Sheet names the sheet to read; "" lets the file say (ParseFile).
	Sheet string
}

var errDryRun = errors.New("planning: dry run")

// MsgImportBusy refuses an upload that waited ParseWait for its turn.
const MsgImportBusy = "D'autres fichiers sont en cours d'import. Veuillez réessayer dans quelques instants."

// MsgImportOneAtATime refuses an upload (an import or a preview) sent while
// another of the same shop is waiting for its turn or being parsed.
const MsgImportOneAtATime = "Un autre de vos fichiers est déjà en cours d'import. Veuillez réessayer une fois celui-ci terminé."

// ParseWait is how long an import waits for a place in Parsing.
const ParseWait = 30 * time.Second

// ParseRetry is the Retry-After of MsgImportOneAtATime when the shop's
// other file is being parsed (the worst file takes a little over a second);
// when it still waits, the wait it has left is added.
const ParseRetry = 2 * time.Second

// Parsing is the gate every Excel import's parsing goes through (the
// daemon's upload and its preview, the CLI's import): reading the worst
// file an upload may be (a 2 MB file whose shared strings inflate to 15 MB)
// allocates about 300 MB and takes a core for over a second, so at most
// half the cores (one at least) parse at once — bounding the memory
// uploads take, and leaving cores to the other requests. The places are
// shared fairly between shops (limit.Fair): a shop has one file at most in
// the gate, another sent meanwhile being refused at once
// (MsgImportOneAtATime, core.ErrThrottled), and the shops waiting are
// served in turn, so that one shop's uploads never make another's wait
// more than one parse. An import waits its turn at most ParseWait, then is
// refused with core.ErrBusy (docs/SECURITY.md "Bounded work").
var Parsing = limit.NewFair("excel import", max(1, runtime.GOMAXPROCS(0)/2), ParseWait, MsgImportBusy,
	MsgImportOneAtATime, ParseRetry)

// ImportXLSX parses an import file and applies it for the distributor in
// one transaction of db: either the whole file is applied (except the cells
// reported in dbErrors, which change nothing) or, on any error or crash,
// nothing is. Catalogue and parsing come first, outside the transaction;
// parsing goes through Parsing, as the distributor's turn.
func ImportXLSX(ctx context.Context, db *store.DB, distributorID, name string, data []byte, now time.Time, opts ImportOptions) (ImportResult, error) {
	products, err := catalog.All(ctx, db)
	if err != nil {
		return ImportResult{}, err
	}
	var imp *Import
	err = Parsing.Do(ctx, distributorID, func() error {
		imp, err = ParseFile(name, data, catalog.NewIndex(products), ParseOptions{Sheet: opts.Sheet, Month: calendar.MonthOf(now)})
		return err
	})
	if err != nil {
		return ImportResult{}, err
	}
	var res ImportResult
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		if res, err = imp.Apply(ctx, tx, distributorID, now, opts.Progress); err != nil {
			return err
		}
		if opts.DryRun {
			return errDryRun
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDryRun) {
		return ImportResult{}, err
	}
	return res, nil
}

// Apply writes a parsed file's quantities for the distributor through the
// one write path (Write, month by month), inside q, which must be a
// transaction, and records one need:import event.
func (imp *Import) Apply(ctx context.Context, q store.Q, distributorID string, now time.Time, progress ProgressFunc) (ImportResult, error) {
	res := ImportResult{ProductsFound: imp.Found(), Rounded: imp.Rounded[:min(len(imp.Rounded), maxEchoedNames)],
		RoundedCount: len(imp.Rounded), Suggestions: imp.Suggestions(), Sheet: imp.Sheet, Sheets: imp.Sheets}
	res.ProductsMissing, res.MissingCount = imp.Missing()
	if res.Rounded == nil {
		res.Rounded = []ImportRounding{}
	}
	if res.Sheets == nil {
		res.Sheets = []string{}
	}
	var err error
	cells := imp.byMonth()
	var before map[needKey]Need
	res.Needs, res.DBErrors, res.DBSuccesses, before, err = applyMonths(ctx, q, distributorID, imp.Months, cells, now, progress)
	if err != nil {
		return ImportResult{}, err
	}
	res.Changes = changesOf(cells, before, res.DBErrors)
	res.Event, err = recordImport(ctx, q, distributorID, imp.Months, res.DBSuccesses, now)
	return res, err
}

type needKey struct{ product, month string }

// changesOf lists the cells written that create or change a need, in file
// order by month, leaving out the refused ones and those already at their
// quantity (or zero where there is no need).
func changesOf(cells [][]sourcedCell, before map[needKey]Need, refused []ImportError) []ImportChange {
	skip := map[needKey]bool{}
	for _, r := range refused {
		skip[needKey{r.ProductID, r.Date}] = true
	}
	size := 0
	for _, month := range cells {
		size += len(month)
	}
	out := make([]ImportChange, 0, size)
	for _, month := range cells {
		for _, c := range month {
			k := needKey{c.ProductID, c.Month}
			n, found := before[k]
			old := n.Quantity
			if skip[k] || found && old == c.Quantity || !found && c.Quantity == 0 {
				continue
			}
			ch := ImportChange{Product: c.name, ProductID: c.ProductID, Date: c.Month, Cell: c.ref, To: c.Quantity}
			if found {
				ch.From = &old
			}
			out = append(out, ch)
		}
	}
	return out
}

// sourcedCell is a cell to write with what names it in errors.
type sourcedCell struct {
	Cell
	name string
	ref  string
}

// applyMonths writes cells (cells[i] are those of months[i]) in one Write
// for all the months, and returns, besides what it wrote, the needs of
// those months as they were before. progress hears of each month once its
// changes and new needs have gone to the database (the new needs stream
// in, month after month, inside Write): the first month's report comes
// with the others still to send. The context is checked after each.
func applyMonths(ctx context.Context, q store.Q, distributorID string, months []string, cells [][]sourcedCell, now time.Time, progress ProgressFunc) ([]View, []ImportError, int, map[needKey]Need, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, nil, err
	}
	total := 0
	for _, list := range cells {
		total += len(list)
	}
	all := make([]Cell, 0, total)
	index := make(map[string]int, len(months))
	for i, list := range cells {
		index[months[i]] = i
		for _, c := range list {
			all = append(all, c.Cell)
		}
	}
	reported := 0 // months reported so far
	report := func(upTo int) {
		for ; reported < upTo; reported++ {
			if progress != nil {
				progress(reported+1, len(months), months[reported])
			}
		}
	}
	res, before, err := write(ctx, q, distributorID, all, now, false, func(month string) {
		// The rows of the months before this one are sent: a cancelled
		// context fails the next row's write.
		report(index[month])
	})
	if err != nil {
		return nil, nil, 0, nil, err
	}
	report(len(months))
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, nil, err
	}
	needs, refused := res.Needs, []ImportError{}
	if needs == nil {
		needs = []View{}
	}
	source := map[needKey]sourcedCell{} // what names the refused cells
	if len(res.Refused) > 0 {
		for _, list := range cells {
			for _, c := range list {
				source[needKey{c.ProductID, c.Month}] = c
			}
		}
	}
	for _, r := range res.Refused {
		s := source[needKey{r.ProductID, r.Month}]
		refused = append(refused, ImportError{
			Product: s.name, ProductID: r.ProductID, Date: r.Month, Quantity: r.Quantity,
			Reserved: r.Reserved, Cell: s.ref, Message: r.Message,
		})
	}
	if before == nil {
		before = map[needKey]Need{}
	}
	return needs, refused, res.Created + res.Updated + res.Unchanged, before, nil
}

// recordImport records the one need:import event of an import: how many
// cells it applied and the months it covered.
func recordImport(ctx context.Context, q store.Q, distributorID string, months []string, count int, now time.Time) (activity.View, error) {
	ev, err := activity.RecordView(ctx, q, activity.Event{Type: activity.NeedImport, OriginID: distributorID, CreatedAt: now,
		Data: activity.Data{Dates: months, Count: &count}})
	if err != nil {
		return activity.View{}, fmt.Errorf("planning: %w", err)
	}
	return ev, nil
}
