package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/limit"
	"primeur/core/store"
)

// MsgNoToken is the exact text PRODUCT §8 expects when a request has no valid
// session.
const MsgNoToken = "User did not provide any token"

// French summaries of the statuses huma raises by itself (malformed JSON,
// schema violations, oversized bodies); the technical reason stays in
// `errors`.
var statusDetails = map[int]string{
	http.StatusBadRequest:            "Requête invalide.",
	http.StatusUnauthorized:          MsgNoToken,
	http.StatusForbidden:             "Accès refusé.",
	http.StatusNotFound:              "Ressource introuvable.",
	http.StatusMethodNotAllowed:      "Méthode non autorisée.",
	http.StatusConflict:              "Opération impossible dans l'état actuel.",
	http.StatusRequestEntityTooLarge: "Requête trop volumineuse.",
	http.StatusUnsupportedMediaType:  "Type de contenu non pris en charge.",
	http.StatusUnprocessableEntity:   "Données invalides.",
	http.StatusTooManyRequests:       "Trop de requêtes, veuillez réessayer plus tard.",
	http.StatusInternalServerError:   "Erreur interne du serveur.",
}

func init() {
	// huma builds its own errors (parsing, schema validation) through this
	// hook: keep its details, but give users a French summary. A 5xx never
	// carries the text of the error behind it: that goes to the log only.
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		detail, ok := statusDetails[status]
		if !ok {
			detail = http.StatusText(status)
		}
		if status >= http.StatusInternalServerError {
			return problem(status, detail)
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
		return problem(status, detail, details...)
	}
	// A handler returning an error that is not a problem (a forgotten
	// apiError), or huma failing to write an answer, comes here with the
	// request: the error is logged with the request's id, and the client
	// reads the generic problem with that id — or, for a fault, the
	// fault's 503 (faultModel).
	huma.NewErrorWithContext = func(hctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
		if status < http.StatusInternalServerError {
			return huma.NewError(status, msg, errs...)
		}
		ctx := hctx.Context()
		err := errors.Join(errs...)
		info := requestOf(ctx)
		if f := store.FaultOf(err); f != store.NoFault && status == http.StatusInternalServerError && info != nil {
			hctx.SetHeader("Retry-After", retryAfterSeconds(store.FaultRetryAfter))
			return faultModel(ctx, info.log, f, err)
		}
		if info != nil {
			info.log.ErrorContext(ctx, "request failed", "status", status, "reason", msg, "err", err)
		}
		if status == http.StatusInternalServerError {
			return internalProblem(ctx)
		}
		return huma.NewError(status, msg)
	}
}

func problem(status int, detail string, details ...*huma.ErrorDetail) *huma.ErrorModel {
	return &huma.ErrorModel{
		Status: status,
		Title:  http.StatusText(status),
		Detail: detail,
		Errors: details,
	}
}

// apiError turns an error from core into the problem the client reads. It is
// the one place sentinels meet HTTP statuses; a fault (store.FaultOf: the
// disk full, the database unreachable) is answered 503 with Retry-After
// (faultProblem), a database still busy 503 too; anything unexpected is
// logged and answered 500 without detail. Plain handlers answer through
// it too (writeError), and huma's hook for a forgotten one
// (NewErrorWithContext) tells faults apart as it does.
func apiError(ctx context.Context, log *slog.Logger, err error) error {
	var (
		invalid *core.ValidationError
		refusal *core.Refusal
	)
	switch {
	case errors.As(err, &invalid):
		details := make([]*huma.ErrorDetail, len(invalid.Fields))
		for i, f := range invalid.Fields {
			details[i] = &huma.ErrorDetail{Location: "body." + f.Field, Message: f.Message, Value: f.Value}
		}
		return problem(http.StatusUnprocessableEntity, invalid.Fields[0].Message, details...)
	case errors.As(err, &refusal):
		return problem(statusOf(refusal.Kind), refusal.Message)
	case errors.Is(err, context.Canceled):
		return problem(http.StatusServiceUnavailable, "Requête interrompue.")
	}
	if f := store.FaultOf(err); f != store.NoFault {
		return faultProblem(ctx, log, f, err)
	}
	if store.IsBusy(err) { // a read or write outside store.DB.Tx's retries
		return problem(http.StatusServiceUnavailable, limit.MsgBusy)
	}
	if status := statusOf(err); status != http.StatusInternalServerError {
		return problem(status, statusDetails[status])
	}
	log.ErrorContext(ctx, "request failed", "err", err)
	return internalProblem(ctx)
}

// faultProblem is the answer to a request that met fault f: 503 with the
// French store.MsgFault and Retry-After store.FaultRetryAfter, the error
// logged as a warning with the request's id, and the fault counted
// (primeur_faults_total).
func faultProblem(ctx context.Context, log *slog.Logger, f store.Fault, err error) error {
	return huma.ErrorWithHeaders(faultModel(ctx, log, f, err),
		http.Header{"Retry-After": {retryAfterSeconds(store.FaultRetryAfter)}})
}

// faultModel is faultProblem's problem, logged and counted, without its
// header.
func faultModel(ctx context.Context, log *slog.Logger, f store.Fault, err error) *huma.ErrorModel {
	if info := requestOf(ctx); info != nil && info.fault != nil {
		info.fault(f)
	}
	log.WarnContext(ctx, "request refused for a fault", "fault", string(f), "err", err)
	return problem(http.StatusServiceUnavailable, store.MsgFault)
}

// writeError is apiError for the plain handlers (documents, public files,
// exports, the session check): the problem written with its headers; a
// 503 always says when to come back (writeProblem).
func (d *Daemon) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := apiError(r.Context(), d.log, err)
	var he huma.HeadersError
	if errors.As(e, &he) {
		for k, vs := range he.GetHeaders() {
			for _, v := range vs {
				w.Header().Add(k, v)
			}
		}
	}
	var p *huma.ErrorModel
	if !errors.As(e, &p) {
		p = internalProblem(r.Context())
	}
	writeProblem(w, p)
}

// internalProblem is the answer to anything unexpected: a generic French
// message quoting the request's id, which the log line of the error
// carries too, so that support can find it; never the error's own text.
func internalProblem(ctx context.Context) *huma.ErrorModel {
	p := problem(http.StatusInternalServerError, statusDetails[http.StatusInternalServerError])
	if id := requestIDOf(ctx); id != "" {
		p.Detail = fmt.Sprintf("Erreur interne du serveur. Si le problème persiste, communiquez la référence %s.", id)
		p.Instance = "urn:primeur:request:" + id
	}
	return p
}

// writeProblem writes p as the answer, outside huma; a 503 says when to
// come back (Retry-After), store.BusyRetryAfter unless set already.
func writeProblem(w http.ResponseWriter, p *huma.ErrorModel) {
	if p.Status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", retryAfterSeconds(store.BusyRetryAfter))
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
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
// back and comes out as the problem the client reads.
func inTx[T any](ctx context.Context, d *Daemon, op func(tx *sqlx.Tx) (T, error)) (T, error) {
	var out T
	err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		out, err = op(tx)
		return err
	})
	if err != nil {
		var zero T
		return zero, apiError(ctx, d.log, err)
	}
	return out, nil
}
