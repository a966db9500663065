package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/limit"
	"primeur/core/store"
	"primeur/daemon/httpx"
)

// MsgNoToken is the exact text PRODUCT §8 expects when a request has no
// valid session (httpx.MsgNoToken).
const MsgNoToken = httpx.MsgNoToken

func init() {
	// huma builds its own errors (parsing, schema validation) through this
	// hook: keep its details, but give users a French summary. A 5xx never
	// carries the text of the error behind it: that goes to the log only.
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		detail, ok := httpx.StatusDetails[status]
		if !ok {
			detail = http.StatusText(status)
		}
		if status >= http.StatusInternalServerError {
			return httpx.Problem(status, detail)
		}
		details := make([]*huma.ErrorDetail, 0, len(errs)+1)
		for _, e := range errs {
			if e == nil {
				continue
			}
			if d, ok := e.(huma.ErrorDetailer); ok {
				details = append(details, d.ErrorDetail())
			} else {
				details = append(details, &huma.ErrorDetail{Message: e.Error()})
			}
		}
		if len(details) == 0 && msg != "" && msg != detail {
			details = append(details, &huma.ErrorDetail{Message: msg})
		}
		return httpx.Problem(status, detail, details...)
	}
	// The one hook of a handler's error: a handler returns core's error
	// as it is (return nil, err) and huma, finding no problem in it, comes
	// here with the request; problemOf maps it (core's typed errors to
	// their status and French text, a fault to 503, anything else logged
	// with the request's id and answered the generic 500). The headers of
	// the answer (Retry-After) are set on the request's context; a
	// throttled refusal is held first (hold), unless its operation says
	// otherwise (answerAtOnce).
	huma.NewErrorWithContext = func(hctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
		if status < http.StatusInternalServerError {
			return huma.NewError(status, msg, errs...)
		}
		ctx := hctx.Context()
		err := errors.Join(errs...)
		log := slog.Default() // a request that did not go through identify
		info := requestOf(ctx)
		if info != nil {
			log = info.log
		}
		if status != http.StatusInternalServerError || err == nil {
			log.ErrorContext(ctx, "request failed", "status", status, "reason", msg, "err", err)
			if status == http.StatusInternalServerError {
				return internalProblem(ctx)
			}
			return huma.NewError(status, msg)
		}
		if errors.Is(err, core.ErrThrottled) && info != nil && info.hold != nil {
			if op := hctx.Operation(); op == nil || op.Metadata[answerAtOnce] == nil {
				info.hold(ctx)
			}
		}
		p, header := problemOf(ctx, log, err)
		for k, vs := range header {
			for _, v := range vs {
				hctx.SetHeader(k, v)
			}
		}
		return p
	}
}

// answerAtOnce, a key of an operation's Metadata, says that its throttled
// refusals are answered at once, not held (hold): the needs file's upload,
// whose held body would stay in memory a second longer.
const answerAtOnce = "primeur-answer-at-once"

// problemOf turns an error into the problem the client reads and the
// headers that go with it. It is the one place core's errors meet HTTP
// statuses: a core.ValidationError is 422 with its French messages per
// field (located in the body, or in the query: inQuery), a core.Refusal
// its kind's status with its French message, a sentinel (statusOf) its
// status with httpx.StatusDetails' text, a request cut short 503; a fault
// (store.FaultOf: the disk full, the database unreachable) is answered 503
// with Retry-After (faultModel), a database still busy 503 too; anything
// unexpected is logged with the request's id and answered 500 without its
// text (internalProblem). An error carrying a delay (limit.Later) gives
// Retry-After. Handlers return core's error as it is and huma's hook
// (NewErrorWithContext) calls problemOf; plain handlers call it through
// writeError.
func problemOf(ctx context.Context, log *slog.Logger, err error) (*huma.ErrorModel, http.Header) {
	var header http.Header
	if after, ok := limit.RetryAfter(err); ok {
		header = http.Header{"Retry-After": {httpx.RetryAfter(after)}}
	}
	var (
		invalid *core.ValidationError
		refusal *core.Refusal
		p       *huma.ErrorModel
	)
	switch {
	case errors.As(err, &p): // a problem already (a role check)
		return p, header
	case errors.As(err, &invalid):
		where := "body."
		var q queryError
		if errors.As(err, &q) {
			where = "query."
		}
		details := make([]*huma.ErrorDetail, len(invalid.Fields))
		for i, f := range invalid.Fields {
			details[i] = &huma.ErrorDetail{Location: where + f.Field, Message: f.Message, Value: f.Value}
		}
		return httpx.Problem(http.StatusUnprocessableEntity, invalid.Fields[0].Message, details...), header
	case errors.As(err, &refusal):
		return httpx.Problem(statusOf(refusal.Kind), refusal.Message), header
	case errors.Is(err, context.Canceled):
		return httpx.Problem(http.StatusServiceUnavailable, "Requête interrompue."), header
	}
	if f := store.FaultOf(err); f != store.NoFault {
		return faultModel(ctx, log, f, err), http.Header{"Retry-After": {httpx.RetryAfter(store.FaultRetryAfter)}}
	}
	if store.IsBusy(err) { // a read or write outside store.DB.Tx's retries
		return httpx.Problem(http.StatusServiceUnavailable, limit.MsgBusy), header
	}
	if status := statusOf(err); status != http.StatusInternalServerError {
		return httpx.Problem(status, httpx.StatusDetails[status]), header
	}
	log.ErrorContext(ctx, "request failed", "err", err)
	return internalProblem(ctx), nil
}

// queryError marks the field errors of a refused query, which problemOf
// locates in the query ("query.start") rather than in a body.
type queryError struct{ error }

func (q queryError) Unwrap() error { return q.error }

// inQuery points the field errors of err, if any, at the query's
// parameters.
func inQuery(err error) error { return queryError{err} }

// faultModel is the answer to a request that met fault f: 503 with the
// French store.MsgFault (Retry-After store.FaultRetryAfter is the
// caller's), the error logged as a warning with the request's id, and the
// fault counted (primeur_faults_total).
func faultModel(ctx context.Context, log *slog.Logger, f store.Fault, err error) *huma.ErrorModel {
	if info := requestOf(ctx); info != nil && info.fault != nil {
		info.fault(f)
	}
	log.WarnContext(ctx, "request refused for a fault", "fault", string(f), "err", err)
	return httpx.Problem(http.StatusServiceUnavailable, store.MsgFault)
}

// writeError is problemOf for the plain handlers (documents, public files,
// exports, the session check): the problem written with its headers; a
// 503 always says when to come back (writeProblem).
func (d *Daemon) writeError(w http.ResponseWriter, r *http.Request, err error) {
	p, header := problemOf(r.Context(), d.log, err)
	for k, vs := range header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	writeProblem(w, p)
}

// internalProblem is the answer to anything unexpected: a generic French
// message quoting the request's id, which the log line of the error
// carries too, so that support can find it; never the error's own text.
func internalProblem(ctx context.Context) *huma.ErrorModel {
	p := httpx.Problem(http.StatusInternalServerError, httpx.StatusDetails[http.StatusInternalServerError])
	if id := httpx.RequestIDOf(ctx); id != "" {
		p.Detail = fmt.Sprintf("Erreur interne du serveur. Si le problème persiste, communiquez la référence %s.", id)
		p.Instance = "urn:primeur:request:" + id
	}
	return p
}

// writeProblem writes p as the answer, outside huma (httpx.WriteProblem);
// a 503 says when to come back (Retry-After), store.BusyRetryAfter unless
// set already.
func writeProblem(w http.ResponseWriter, p *huma.ErrorModel) {
	if p.Status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", httpx.RetryAfter(store.BusyRetryAfter))
	}
	httpx.WriteProblem(w, p)
}

func statusOf(err error) int {
	switch {
	case errors.Is(err, core.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, core.ErrForbidden):
		return http.StatusForbidden
	case errors.Is(err, core.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, core.ErrUnauthenticated):
		return http.StatusUnauthorized
	case errors.Is(err, core.ErrThrottled):
		return http.StatusTooManyRequests
	case errors.Is(err, core.ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, core.ErrBusy):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// inTx runs op in one transaction and returns its result; a failure rolls
// back and is returned as it is, for problemOf.
func inTx[T any](ctx context.Context, d *Daemon, op func(tx *sqlx.Tx) (T, error)) (T, error) {
	var out T
	err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		out, err = op(tx)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}
