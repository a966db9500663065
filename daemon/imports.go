package daemon

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/catalog"
	"primeur/core/planning"
)

// maxUploadBody bounds the body of POST /api/needs-loader: the largest
// accepted file plus room for the multipart envelope.
const maxUploadBody = planning.MaxImportBytes + 64<<10

// French messages of the upload itself (the file's own errors come from
// core/planning).
const (
	MsgUploadNotMultipart = "Envoyez le fichier dans un formulaire multipart/form-data (champ importfile)."
	MsgUploadUnreadable   = "Le formulaire envoyé est illisible ou incomplet : réessayez l'envoi du fichier."
)

// xlsxType is the media type of .xlsx files.
const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// ImportFileInput is the upload of a needs file (PRODUCT §3 "File import").
type ImportFileInput struct {
	RawBody huma.MultipartFormFiles[struct {
		ImportFile huma.FormFile `form:"importfile" required:"false" contentType:"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.oasis.opendocument.spreadsheet,text/csv,application/vnd.ms-excel,application/octet-stream" doc:"The file: .xlsx, .ods or .csv (a table: Produit, then one column per month), read by its name's extension. Needed: refused (422, French message) without it"`
		Sheet      string        `form:"sheet" required:"false" maxLength:"1000" doc:"The sheet to read, by its name (the answer's sheets list those holding a table); without it, the active sheet when it holds a table, else the only one: when several could be meant, 422 on body.sheet, its value the sheets' names" example:"2027"`
	}]
}

// ImportFileOutput is what the import did.
type ImportFileOutput struct {
	Body planning.ImportResult
}

// StandardImportInput asks for a standard-import simulation or commit.
type StandardImportInput struct {
	Body struct {
		Turnover float64  `json:"turnover" required:"false" doc:"Annual fruit-and-vegetable turnover in euros, already corrected (PRODUCT §9). Needed: refused (422) without it" example:"135000"`
		Months   []string `json:"months" required:"false" doc:"Months to plan (YYYY-MM or YYYY-MM-01), 36 at most, none past. Needed: refused (422) without them" example:"[\"2026-12-01\", \"2027-01-01\", \"2027-02-01\"]"`
	}
}

// StandardSimOutput is the preview of a standard import.
type StandardSimOutput struct {
	Body []planning.StandardPreview
}

// StandardCommitOutput is what a standard import wrote.
type StandardCommitOutput struct {
	Body planning.StandardResult
}

// uploadErrors are the statuses of the file upload and of its preview.
var uploadErrors = []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusRequestEntityTooLarge,
	http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable}

// uploadMetadata: a shop's second file, refused while its other one is in
// the gate (core.ErrThrottled), is answered at once, unlike a throttled
// login (hold): a held upload would keep its body, up to 5 MB read before
// the handler, a second longer.
var uploadMetadata = map[string]any{answerAtOnce: true}

func (d *Daemon) registerImports(api huma.API) {
	tags := []string{"Needs"}
	huma.Register(api, huma.Operation{
		OperationID: "import-needs-file", Method: http.MethodPost, Path: "/needs-loader", Tags: tags,
		Summary: "Import needs from a spreadsheet file: .xlsx, .ods or .csv (shops)",
		Description: "Multipart field `importfile`, an .xlsx, .ods or .csv file of 5 MB at most (.xls and .xlsm refused " +
			"with how to save them as .xlsx or .ods), and optionally `sheet`, the sheet to read. The sheet read is the one " +
			"named, else the active sheet when it holds a needs table, else the only sheet holding one (a table whose months " +
			"are all past gives way to one with months to come); when several could be meant, 422 on `body.sheet` naming " +
			"them, its `value` their names. The answer names the sheet read (`sheet`) and every sheet holding a table " +
			"(`sheets`). The table: a header row " +
			"with a product column (`Produit`, `Désignation`, `Article`…) followed by months (dates, or text such as " +
			"`janv. 2027` or `01/2027`), below any title rows, maybe over two rows; one row per product (PRODUCT §14 \"File format\"). " +
			"Products match the catalogue whatever the case, accents and plural; unknown ones are listed in " +
			"`productsMissing` (with `suggestions`). Cells that would " +
			"go under existing commitments and pending proposals, or in a past month, are listed in `dbErrors` and " +
			"change nothing; the rest is written in one transaction with one need:import event. A file that cannot " +
			"be read answers 422 with every problem (each naming its cell) in `errors`, the first in `detail`, and changes nothing. Files are " +
			"parsed a few at a time, shared fairly between shops: a shop has one file at most waiting or being read (its " +
			"import or its preview), another sent meanwhile answering 429 at once with Retry-After; shops waiting are " +
			"served in turn, and one that waited 30 s for its turn answers 503 with Retry-After.",
		MaxBodyBytes: maxUploadBody,
		Middlewares:  huma.Middlewares{d.acceptUpload},
		Errors:       uploadErrors,
		Metadata:     uploadMetadata,
	}, d.importNeedsFile)
	huma.Register(api, huma.Operation{
		OperationID: "preview-needs-file", Method: http.MethodPost, Path: "/needs-loader/preview", Tags: tags,
		Summary: "Preview a file import: what it would write (shops)",
		Description: "The same upload as POST /api/needs-loader, applied in a transaction that is rolled back: the " +
			"answer says what the import would do — `changes` (each need created or changed, with the quantity " +
			"before), `dbErrors`, `productsMissing` and `suggestions`, `rounded`, the sheet read — and nothing is written (no need, " +
			"no event). The interface shows it before the shop confirms. A refused file answers 422 with every " +
			"problem in `errors`, as the import does; the preview takes the shop's turn as the import does (429, 503).",
		MaxBodyBytes: maxUploadBody,
		Middlewares:  huma.Middlewares{d.acceptUpload},
		Errors:       uploadErrors,
		Metadata:     uploadMetadata,
	}, d.previewNeedsFile)
	huma.Register(api, huma.Operation{
		OperationID: "simulate-standard-import", Method: http.MethodPost, Path: "/needs/importstd/sim", Tags: tags,
		Summary: "Simulate a standard import (shops)",
		Description: "Per product, the needs the standard formula gives for the first three months asked " +
			"(PRODUCT §14). Writes nothing.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, d.simulateStandard)
	huma.Register(api, huma.Operation{
		OperationID: "commit-standard-import", Method: http.MethodPost, Path: "/needs/importstd/commit", Tags: tags,
		Summary: "Write a standard import (shops)",
		Description: "Writes every month asked for every product of the standard formula (zero quantities left out), " +
			"in one transaction with one need:import event. Lenient like the file import: a need whose commitments " +
			"and pending proposals exceed the simulated quantity keeps its quantity and is listed in `dbErrors`.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, d.commitStandard)
}

// acceptUpload guards the upload before huma reads it: shops only, a body of
// at most maxUploadBody (huma does not bound multipart bodies), a readable
// multipart form. The body is read into memory once, bounded, and parsed
// here; huma then finds the form already parsed.
func (d *Daemon) acceptUpload(ctx huma.Context, next func(huma.Context)) {
	r, w := humago.Unwrap(ctx)
	if !currentUser(ctx.Context()).IsDistributor() {
		writeJSONProblem(w, http.StatusForbidden, MsgShopsOnly)
		return
	}
	if r.ContentLength > maxUploadBody {
		writeJSONProblem(w, http.StatusRequestEntityTooLarge, planning.MsgImportTooBig)
		return
	}
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/form-data" {
		writeJSONProblem(w, http.StatusUnsupportedMediaType, MsgUploadNotMultipart)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxUploadBody+1))
	if err != nil {
		writeJSONProblem(w, http.StatusBadRequest, MsgUploadUnreadable)
		return
	}
	if len(body) > maxUploadBody {
		writeJSONProblem(w, http.StatusRequestEntityTooLarge, planning.MsgImportTooBig)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err := r.ParseMultipartForm(maxUploadBody); err != nil {
		writeJSONProblem(w, http.StatusBadRequest, MsgUploadUnreadable)
		return
	}
	next(ctx)
}

func (d *Daemon) importNeedsFile(ctx context.Context, in *ImportFileInput) (*ImportFileOutput, error) {
	return d.importFile(ctx, in, false)
}

func (d *Daemon) previewNeedsFile(ctx context.Context, in *ImportFileInput) (*ImportFileOutput, error) {
	return d.importFile(ctx, in, true)
}

// importFile imports the uploaded file, or previews it (dryRun): the same
// code, rolled back.
func (d *Daemon) importFile(ctx context.Context, in *ImportFileInput, dryRun bool) (*ImportFileOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	file := in.RawBody.Data().ImportFile
	if !file.IsSet {
		return nil, core.Invalid(planning.ImportField, planning.MsgImportNoFile)
	}
	defer file.Close()
	if err := planning.CheckImportFile(file.Filename, file.Size); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(file, planning.MaxImportBytes+1))
	if err != nil {
		return nil, err
	}
	// Each month written is logged at debug level, from inside the import's
	// transaction: the crash tests kill the daemon on the first of these.
	progress := func(done, total int, month string) {
		d.log.DebugContext(ctx, "import progress", "done", done, "total", total, "month", month)
	}
	res, err := planning.ImportXLSX(ctx, d.db, u.ID, file.Filename, data, d.now(),
		planning.ImportOptions{Progress: progress, DryRun: dryRun, Sheet: in.RawBody.Data().Sheet})
	if err != nil {
		return nil, err
	}
	return &ImportFileOutput{Body: res}, nil
}

func (d *Daemon) simulateStandard(ctx context.Context, in *StandardImportInput) (*StandardSimOutput, error) {
	if _, err := asDistributor(ctx); err != nil {
		return nil, err
	}
	preview, err := planning.SimulateStandard(ctx, d.db, in.Body.Turnover, in.Body.Months, d.now())
	if err != nil {
		return nil, err
	}
	return &StandardSimOutput{Body: preview}, nil
}

func (d *Daemon) commitStandard(ctx context.Context, in *StandardImportInput) (*StandardCommitOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	out := &StandardCommitOutput{}
	err = d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		out.Body, err = planning.ImportStandard(ctx, tx, u.ID, in.Body.Turnover, in.Body.Months, d.now(), nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// exampleXLSX serves /public/other/exemple_import.xlsx, made now so that
// its twelve months start next month: a file always importable as is.
func (d *Daemon) exampleXLSX(w http.ResponseWriter, r *http.Request) {
	d.serveWorkbook(w, r, "exemple_import.xlsx", planning.ExampleXLSX)
}

// productsXLSX serves /public/other/produits.xlsx: the catalogue with each
// product's unit, as a workbook (the CSV's twin for shops that start their
// file from it).
func (d *Daemon) productsXLSX(w http.ResponseWriter, r *http.Request) {
	d.serveWorkbook(w, r, "produits.xlsx", planning.ProductsXLSX)
}

// serveWorkbook serves a workbook made now from the catalogue, as an
// attachment named name.
func (d *Daemon) serveWorkbook(w http.ResponseWriter, r *http.Request, name string,
	build func([]catalog.Product, time.Time) ([]byte, error)) {
	ps, err := catalog.All(r.Context(), d.db)
	var data []byte
	if err == nil {
		data, err = build(catalog.InUse(ps), d.now())
	}
	if err != nil {
		d.writeError(w, r, fmt.Errorf("workbook %s: %w", name, err))
		return
	}
	w.Header().Set("Content-Type", xlsxType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
}
