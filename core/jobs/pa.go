package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"primeur/core"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/notify"
	"primeur/core/pa"
	"primeur/core/store"

	"github.com/jmoiron/sqlx"
)

// The pa job (issue 38) deposits on each connected producer's approved
// platform (core/pa) every invoice, credit note and complementary invoice
// it issued from its connection's date on (pa_connections.deposit_from),
// as Factur-X, exactly once, then reads back the lifecycle statuses.
//
// Exactly once, by claim then deposit, as sendOnce emails (send.go):
//
//  1. claim: one conditional upsert of the document's row of pa_deposits
//     names the run (a row of mail_senders, renewed every Beat: claimer),
//     only if it is not deposited, has attempts left, its backoff is over
//     and it is unclaimed or claimed by a run that stopped renewing for
//     Lease. One run alone gets it; the others skip it.
//  2. a row whose in_flight_at is set is one whose POST began and whose
//     outcome was never recorded (a process killed, an answer lost): the
//     PA is first searched by trackingId (the document's id); a flow found
//     is recorded as the deposit, and nothing is posted again.
//  3. deposit: in_flight_at is committed, while the claim is still the
//     run's, before the POST; then the flow id and deposited_at are
//     recorded. A failure counts an attempt and waits (retry_at: 1, 4,
//     16, 64 minutes); the MaxDeposits-th leaves the document for an
//     administrator, with one log line at Error level and the Observer's
//     DepositLeft. A refusal of the PA itself (4xx: no flow made) clears
//     in_flight_at; any other failure keeps it, so that the next try
//     searches first.
//
// Then the statuses: POST /v1/flows/search, the flows updated after the
// connection's polled_after (the PA's own time, so no clock of ours is
// compared with it), of the types CustomerInvoice (its acknowledgement:
// Error is the status "irrecevable") and CustomerInvoiceLC (direction In,
// a CDAR read by GET: 200 Déposée, 213 Rejetée, 210 Refusée, 212
// Encaissée…), each recorded once in pa_statuses (its source, the
// message's flow id, is its key) and the latest in pa_deposits.status.

// MaxDeposits is how many failed attempts a deposit gets before it is
// left for an administrator.
const MaxDeposits = 5

// depositBackoff is how long a deposit that failed for the attempts-th
// time waits before the next try.
func depositBackoff(attempts int) time.Duration {
	return time.Minute << (2 * min(max(attempts-1, 0), 6))
}

// Report labels of the pa job.
const (
	PADeposited = "documents déposés sur la plateforme agréée"
	PAStatuses  = "statuts reçus de la plateforme agréée"
	// PAFailed appears only when deposits failed in the run.
	PAFailed = "dépôts en échec (réessayés plus tard)"
	// PALeft appears only when documents wait for an administrator.
	PALeft = "dépôts abandonnés, laissés à un administrateur (voir le journal)"
)

const (
	paClaim = `INSERT INTO pa_deposits (document_id, producer_id, claim, claimed_at)
		SELECT d.id, d.producer_id, CAST(? AS TEXT), CAST(? AS BIGINT) FROM documents d
		JOIN pa_connections c ON c.producer_id = d.producer_id
		WHERE d.id = ? AND d.issued_at >= c.deposit_from AND NOT d.internal
		ON CONFLICT (document_id) DO UPDATE SET claim = excluded.claim, claimed_at = excluded.claimed_at
		WHERE pa_deposits.deposited_at IS NULL AND pa_deposits.attempts < ? AND pa_deposits.retry_at <= ?
			AND (pa_deposits.claim IS NULL OR pa_deposits.claim = ?
				OR EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = pa_deposits.claim AND m.beat_at <= ?)
				OR (pa_deposits.claimed_at <= ? AND NOT EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = pa_deposits.claim)))`
	// paPending lists a producer's documents to deposit, oldest first:
	// args the producer, MaxDeposits, the wall-clock time.
	paPending = `SELECT d.id FROM documents d JOIN pa_connections c ON c.producer_id = d.producer_id
		WHERE d.producer_id = ? AND d.issued_at >= c.deposit_from AND NOT d.internal
		AND NOT EXISTS (SELECT 1 FROM pa_deposits p WHERE p.document_id = d.id
			AND (p.deposited_at IS NOT NULL OR p.attempts >= ? OR p.retry_at > ?))
		ORDER BY d.issued_at, d.invoice_id IS NOT NULL, d.seq`
	// paHolder reads who holds a document's claim, another run's: args
	// the document, MaxDeposits, the run.
	paHolder = `SELECT p.claim AS claim, m.host, m.place, m.pid, m.process_start
		FROM pa_deposits p LEFT JOIN mail_senders m ON m.id = p.claim
		WHERE p.document_id = ? AND p.deposited_at IS NULL AND p.attempts < ? AND p.claim IS NOT NULL AND p.claim <> ?`
	paInFlight  = `UPDATE pa_deposits SET in_flight_at = ? WHERE document_id = ? AND claim = ?`
	paDeposited = `UPDATE pa_deposits SET flow_id = ?, deposited_at = ?, status = CASE WHEN status = '' THEN 'submitted' ELSE status END,
		status_at = COALESCE(status_at, ?), in_flight_at = NULL, claim = NULL, claimed_at = NULL, error = ''
		WHERE document_id = ? AND deposited_at IS NULL`
	paFail = `UPDATE pa_deposits SET claim = NULL, claimed_at = NULL, attempts = attempts + 1, retry_at = ?, error = ?,
		in_flight_at = CASE WHEN CAST(? AS INTEGER) = 1 THEN NULL ELSE in_flight_at END
		WHERE document_id = ? AND claim = ? RETURNING attempts`
	paRelease = `UPDATE pa_deposits SET claim = NULL, claimed_at = NULL WHERE document_id = ? AND claim = ?`
)

// PA is the pa job: deposit what is due, then read the statuses.
func PA(ctx context.Context, env Env, now time.Time) (Report, error) {
	var r Report
	var keys *pa.Keyring
	if env.PAKeys != "" {
		k, err := pa.LoadKeys(env.PAKeys)
		if err != nil && !pa.IsNoKey(err) {
			return r, err
		}
		keys = k
	}
	conns, err := pa.Connections(ctx, env.DB, keys)
	if err != nil {
		return r, err
	}
	if env.rehearsal {
		return r, paRehearse(ctx, env, conns, &r)
	}
	c := newClaimer(env)
	defer c.close(ctx)
	var deposited, statuses, failed, left int
	var firstErr error
	for _, conn := range conns {
		if conn.SecretErr != nil {
			env.Log.Error("jobs: pa: the connection's secret does not open; its documents wait (docs/SECURITY.md, the PA key file)",
				"producer", conn.ProducerID, "key file", env.PAKeys, "err", conn.SecretErr)
			continue
		}
		client, err := pa.New(conn.Config())
		if err != nil {
			env.Log.Error("jobs: pa: connection", "producer", conn.ProducerID, "err", err)
			continue
		}
		var ids []string
		if err := store.Select(ctx, env.DB, &ids, paPending, conn.ProducerID, MaxDeposits, env.wallClock().UnixMilli()); err != nil {
			return r, fmt.Errorf("jobs: pa: pending: %w", err)
		}
		unreachable := false
		dir := env.directoryOf(client, conn)
		for _, id := range ids {
			out, err := depositOnce(ctx, env, c, client, dir, id)
			switch out {
			case depositDone:
				deposited++
			case depositFailed:
				failed++
			case depositLeft:
				failed++
				left++
			}
			if err != nil && firstErr == nil && out == skippedDeposit {
				firstErr = err
			}
			// A PA that does not answer, or refuses the token, would fail
			// every document the same way, each after its timeout: the
			// others wait for the next run.
			var pe *pa.Error
			if (out == depositFailed || out == depositLeft) && errors.As(err, &pe) && (pe.Temporary || pe.Op == "token") {
				unreachable = true
				break
			}
		}
		if unreachable {
			continue
		}
		// The statuses first: an invoice just deposited and rejected (213)
		// or refused (210) is not posted Encaissée because it is paid.
		n, err := pollStatuses(ctx, env, client, conn)
		statuses += n
		if err != nil {
			env.Log.Warn("jobs: pa: statuses", "producer", conn.ProducerID, "err", err, "message", pa.French(err))
		}
		cashed, err := postCashed(ctx, env, client, conn, now)
		statuses += cashed
		if err != nil {
			env.Log.Warn("jobs: pa: the Encaissée statuses", "producer", conn.ProducerID, "err", err, "message", pa.French(err))
		}
	}
	r.add(PADeposited, deposited)
	r.add(PAStatuses, statuses)
	if failed > 0 {
		r.add(PAFailed, failed)
	}
	if left > 0 {
		r.add(PALeft, left)
	}
	return r, firstErr
}

type depositOutcome int

const (
	skippedDeposit depositOutcome = iota
	depositDone
	depositFailed
	depositLeft
)

// directory is a connection's Directory Service as one run asks it: once
// per buyer.
type directory struct {
	d     *pa.Directory
	known map[string]string // SIREN → 'found', 'absent' or '' (no answer)
}

// directoryOf is the connection's Directory Service, nil when it has none.
func (e Env) directoryOf(client *pa.Client, conn pa.Connection) *directory {
	if conn.DirectoryURL == "" {
		return nil
	}
	d, err := client.Directory(conn.DirectoryURL)
	if err != nil {
		e.Log.Warn("jobs: pa: the directory's URL", "producer", conn.ProducerID, "err", err)
		return nil
	}
	return &directory{d: d, known: map[string]string{}}
}

// buyer says whether siren has a directory line whose platform receives:
// 'found', 'absent', or ” when it cannot be told (no directory, no SIREN,
// no answer — a failure is asked again at the next run, not in this one).
// It never keeps a document from its deposit: the buyer's PA may know it
// by other means, and a missing line is the buyer's to fix.
func (dir *directory) buyer(ctx context.Context, env Env, siren string) string {
	if dir == nil || siren == "" {
		return ""
	}
	if v, ok := dir.known[siren]; ok {
		return v
	}
	lines, err := dir.d.Lines(ctx, siren)
	v := "absent"
	switch {
	case err != nil:
		env.Log.Warn("jobs: pa: the directory did not answer; deposited without its word", "siren", siren, "err", err, "message", pa.French(err))
		v = ""
	case slices.ContainsFunc(lines, pa.DirectoryLine.Enabled):
		v = "found"
	}
	dir.known[siren] = v
	return v
}

// depositOnce deposits document id at most once (see above), after asking
// the directory (dir, nil for none) about its buyer.
func depositOnce(ctx context.Context, env Env, c *claimer, client *pa.Client, dir *directory, id string) (depositOutcome, error) {
	if err := c.register(ctx); err != nil {
		return skippedDeposit, err
	}
	claimed, err := paClaimFrom(ctx, env, c, id, "")
	if err != nil {
		return skippedDeposit, err
	}
	if !claimed {
		// Held by another run: taken back at once if its process is
		// known gone (same machine), as the emails' claims are.
		var h []holder
		if err := store.Select(ctx, env.DB, &h, paHolder, id, MaxDeposits, c.id); err != nil || len(h) == 0 {
			return skippedDeposit, err
		}
		p := process{place: h[0].Place.String, pid: int(h[0].PID.Int64), start: h[0].Start.Int64}
		if !h[0].Place.Valid || !gone(p) {
			return skippedDeposit, nil
		}
		if claimed, err = paClaimFrom(ctx, env, c, id, h[0].Claim); err != nil || !claimed {
			return skippedDeposit, err
		}
		env.Log.Info("jobs: pa: took back the claim of a process gone", "document", id, "host", h[0].Host.String, "pid", h[0].PID.Int64)
	}
	var inFlight sql.NullInt64
	if err := store.Get(ctx, env.DB, &inFlight, `SELECT in_flight_at FROM pa_deposits WHERE document_id = ?`, id); err != nil {
		return skippedDeposit, fmt.Errorf("jobs: pa: %s: %w", id, err)
	}
	if inFlight.Valid {
		// A POST whose outcome was never recorded: the PA may hold it.
		flows, err := client.Search(ctx, pa.Filter{TrackingID: id, Direction: []string{pa.DirectionOut}})
		if err != nil {
			return env.depositFailed(ctx, c, id, err)
		}
		if len(flows) > 0 {
			f := flows[len(flows)-1]
			env.Log.Info("jobs: pa: a deposit whose outcome was lost was found on the PA; recorded, not deposited again",
				"document", id, "flow", f.FlowID)
			return env.recordDeposit(ctx, id, f.FlowID)
		}
	}
	var kind, number string
	if err := store.Get(ctx, env.DB, &kind, `SELECT kind FROM documents WHERE id = ?`, id); err != nil {
		return env.depositFailed(ctx, c, id, fmt.Errorf("jobs: pa: %s: %w", id, err))
	}
	var doc billing.Invoice
	if kind == billing.KindInvoice {
		doc, err = billing.Get(ctx, env.DB, id)
	} else {
		doc, err = billing.GetCredit(ctx, env.DB, id)
	}
	if err != nil {
		return env.depositFailed(ctx, c, id, err)
	}
	number = doc.Number
	if v := dir.buyer(ctx, env, doc.Buyer.SIREN()); v != "" {
		if _, err := store.Exec(ctx, env.DB, `UPDATE pa_deposits SET directory = ? WHERE document_id = ? AND claim = ?`, v, id, c.id); err != nil {
			return env.depositFailed(ctx, c, id, fmt.Errorf("jobs: pa: %s: directory: %w", id, err))
		}
		if v == "absent" {
			env.Log.Warn("jobs: pa: the buyer has no receiving line in the directory; deposited all the same",
				"document", number, "buyer", doc.Buyer.Name, "siren", doc.Buyer.SIREN())
		}
	}
	var pdf []byte
	err = env.safely("render for the PA", func() error {
		var err error
		pdf, err = env.Render.invoice(doc)
		return err
	})
	if err != nil {
		return env.depositFailed(ctx, c, id, err)
	}
	if n, err := store.Exec(ctx, env.DB, paInFlight, env.wallClock().UnixMilli(), id, c.id); err != nil || n == 0 {
		if err == nil {
			env.Log.Warn("jobs: pa: claim taken back before the deposit (this process stalled)", "document", id)
			return skippedDeposit, nil
		}
		return env.depositFailed(ctx, c, id, fmt.Errorf("jobs: pa: %s: %w", id, err))
	}
	f, err := client.Deposit(ctx, pa.Deposit{TrackingID: id, Name: number + ".pdf", File: pdf})
	if err != nil {
		return env.depositFailed(ctx, c, id, err)
	}
	env.Log.Debug("jobs: pa: deposited", "document", number, "flow", f.FlowID)
	return env.recordDeposit(ctx, id, f.FlowID)
}

// paClaimFrom is the claim's conditional upsert (paClaim): dead is a run
// known gone whose claim may be taken ("" for none).
func paClaimFrom(ctx context.Context, env Env, c *claimer, id, dead string) (bool, error) {
	wall, stale := env.wallClock().UnixMilli(), c.staleBefore()
	n, err := store.Exec(ctx, env.DB, paClaim, c.id, wall, id, MaxDeposits, wall, dead, stale, stale)
	if err != nil {
		return false, fmt.Errorf("jobs: pa: claim %s: %w", id, err)
	}
	return n == 1, nil
}

func (e Env) recordDeposit(ctx context.Context, id, flowID string) (depositOutcome, error) {
	wall := e.wallClock().UnixMilli()
	if _, err := store.Exec(context.WithoutCancel(ctx), e.DB, paDeposited, flowID, wall, wall, id); err != nil {
		return depositDone, fmt.Errorf("jobs: pa: record the deposit of %s (flow %s): %w", id, flowID, err)
	}
	e.Observe.deposited()
	return depositDone, nil
}

// depositFailed records a failed attempt of the run's claim on id, says
// so at Error level when it was the last, and returns the cause.
func (e Env) depositFailed(ctx context.Context, c *claimer, id string, cause error) (depositOutcome, error) {
	ctx = context.WithoutCancel(ctx)
	// Only a deposit the PA refused itself (4xx: no flow made) clears
	// in_flight_at; a failure before the POST leaves it as it was, any
	// other after it keeps it set (the PA may hold the flow).
	var pe *pa.Error
	refused := 0
	if errors.As(cause, &pe) && pe.Op == "deposit" && pe.Refused() {
		refused = 1
	}
	var attempts []int
	err := e.DB.Tx(ctx, func(tx *sqlx.Tx) error {
		attempts = attempts[:0]
		var a int
		if err := store.Get(ctx, tx, &a, `SELECT attempts FROM pa_deposits WHERE document_id = ?`, id); err != nil {
			return err
		}
		return store.Select(ctx, tx, &attempts, paFail, e.wallClock().Add(depositBackoff(a+1)).UnixMilli(), pa.French(cause), refused, id, c.id)
	})
	e.Observe.depositFailed()
	if err != nil {
		e.Log.Error("jobs: pa: record a failed deposit", "document", id, "err", err, "cause", cause)
		return depositFailed, cause
	}
	if len(attempts) == 1 && attempts[0] >= MaxDeposits {
		var number string
		_ = store.Get(ctx, e.DB, &number, `SELECT number FROM documents WHERE id = ?`, id)
		e.Log.Error("jobs: pa: deposit abandoned after "+fmt.Sprint(attempts[0])+" failed attempts; the document is left for an administrator: "+
			"fix its cause, then give it back: `primeur jobs run pa --retry-failed`",
			"document", number, "id", id, "err", cause, "message", pa.French(cause))
		e.Observe.depositLeft()
		return depositLeft, cause
	}
	e.Log.Warn("jobs: pa: deposit failed, tried again later", "document", id, "err", cause)
	return depositFailed, cause
}

// polledFormat writes pa_connections.polled_after: RFC 3339 in UTC with
// nine fraction digits, so that two positions compare as texts.
const polledFormat = "2006-01-02T15:04:05.000000000Z"

// RetryDeposits gives the deposits left for an administrator (MaxDeposits
// failed attempts) their attempts back, so that the next run tries them
// again, and returns how many. Their in_flight_at is kept: a deposit whose
// outcome was lost is still searched for first.
func RetryDeposits(ctx context.Context, db *store.DB) (int, error) {
	n, err := store.Exec(ctx, db, `UPDATE pa_deposits SET attempts = 0, retry_at = 0
		WHERE deposited_at IS NULL AND attempts >= ?`, MaxDeposits)
	if err != nil {
		return 0, fmt.Errorf("jobs: retry deposits: %w", err)
	}
	return int(n), nil
}

// pollStatuses reads the flows updated on the PA since the last poll and
// records the statuses they carry; it returns how many were new.
func pollStatuses(ctx context.Context, env Env, client *pa.Client, conn pa.Connection) (int, error) {
	var after *time.Time
	if conn.PolledAfter != "" {
		t, err := time.Parse(time.RFC3339Nano, conn.PolledAfter)
		if err == nil {
			after = &t
		}
	}
	siren, err := producerSIREN(ctx, env, conn.ProducerID)
	if err != nil {
		return 0, err
	}
	recorded := 0
	for range 100 { // pages: at most 10 000 flows a run
		flows, err := client.Search(ctx, pa.Filter{UpdatedAfter: after, Direction: []string{pa.DirectionIn, pa.DirectionOut},
			FlowType: []string{pa.TypeCustomerInvoice, pa.TypeCustomerInvoiceLC}})
		if err != nil {
			return recorded, err
		}
		var last *time.Time
		for _, f := range flows {
			n, err := statusOf(ctx, env, client, conn, siren, f)
			if err != nil {
				return recorded, err
			}
			recorded += n
			if f.UpdatedAt != nil && (last == nil || f.UpdatedAt.After(*last)) {
				last = f.UpdatedAt
			}
		}
		if last == nil || (after != nil && !last.After(*after)) {
			return recorded, nil
		}
		after = last
		// Only forward: a run that read less (two runs at once) does not
		// take the position back; the fixed-width text compares as time.
		if _, err := store.Exec(ctx, env.DB, `UPDATE pa_connections SET polled_after = ? WHERE producer_id = ? AND polled_after < ?`,
			after.UTC().Format(polledFormat), conn.ProducerID, after.UTC().Format(polledFormat)); err != nil {
			return recorded, fmt.Errorf("jobs: pa: record the poll: %w", err)
		}
		if len(flows) < pa.PageSize {
			return recorded, nil
		}
	}
	return recorded, nil
}

// producerSIREN is the SIREN of a producer ("" without a SIRET).
func producerSIREN(ctx context.Context, env Env, id string) (string, error) {
	var siret string
	if err := store.Get(ctx, env.DB, &siret, `SELECT siret FROM users WHERE id = ?`, id); err != nil {
		return "", fmt.Errorf("jobs: pa: producer %s: %w", id, err)
	}
	if len(siret) < 9 {
		return "", nil
	}
	return siret[:9], nil
}

// MaxWebhook bounds the body of a webhook call.
const MaxWebhook = 64 << 10

// PANotified handles a webhook call of producerID's PA (XP Z12-013 §5.6.3:
// a WebhookCallbackContent, the flow made or changed) carrying token, its
// bearer token (pa.Keyring.WebhookToken): the flow's id is read from the
// body, and only its id — the flow itself is then read from the PA, so a
// forged body can at most make Primeur read a flow of its own PA — and its
// status recorded as the pa job's search would. It returns how many
// statuses were new. A wrong token is core.ErrUnauthenticated, a producer
// without a connection core.ErrNotFound, a body too large core.ErrTooLarge,
// a body that names no flow a validation error.
func PANotified(ctx context.Context, env Env, producerID, token string, body []byte) (int, error) {
	if env.PAKeys == "" {
		return 0, fmt.Errorf("jobs: pa webhook: %w", core.ErrUnauthenticated)
	}
	keys, err := pa.LoadKeys(env.PAKeys)
	if pa.IsNoKey(err) {
		return 0, fmt.Errorf("jobs: pa webhook: %w", core.ErrUnauthenticated)
	}
	if err != nil {
		return 0, err
	}
	if !keys.CheckWebhookToken(producerID, token) {
		return 0, fmt.Errorf("jobs: pa webhook: %w", core.ErrUnauthenticated)
	}
	if len(body) > MaxWebhook {
		return 0, fmt.Errorf("jobs: pa webhook: %w", core.ErrTooLarge)
	}
	var call struct {
		FlowInfo struct {
			FlowID string `json:"flowId"`
		} `json:"flowInfo"`
	}
	if err := json.Unmarshal(body, &call); err != nil || call.FlowInfo.FlowID == "" || len(call.FlowInfo.FlowID) > 36 {
		return 0, core.Invalid("flowInfo", "Le corps doit être un WebhookCallbackContent nommant son flux (flowInfo.flowId).")
	}
	conns, err := pa.Connections(ctx, env.DB, keys)
	if err != nil {
		return 0, err
	}
	i := slices.IndexFunc(conns, func(c pa.Connection) bool { return c.ProducerID == producerID })
	if i < 0 {
		return 0, fmt.Errorf("jobs: pa webhook: producer %s: %w", producerID, core.ErrNotFound)
	}
	conn := conns[i]
	if conn.SecretErr != nil {
		return 0, conn.SecretErr
	}
	client, err := pa.New(conn.Config())
	if err != nil {
		return 0, err
	}
	f, err := client.Flow(ctx, call.FlowInfo.FlowID)
	if err != nil {
		return 0, err
	}
	siren, err := producerSIREN(ctx, env, producerID)
	if err != nil {
		return 0, err
	}
	return statusOf(ctx, env, client, conn, siren, f)
}

// statusOf records the status a flow carries, if it is one of the
// producer's documents': 1 when new.
func statusOf(ctx context.Context, env Env, client *pa.Client, conn pa.Connection, siren string, f pa.Flow) (int, error) {
	at := time.Now()
	if f.UpdatedAt != nil {
		at = *f.UpdatedAt
	}
	switch {
	case f.FlowDirection == pa.DirectionOut && f.FlowType == pa.TypeCustomerInvoice:
		if f.Ack == nil || f.Ack.Status != pa.AckError || f.TrackingID == "" {
			return 0, nil
		}
		code, reason := "", "motif non précisé"
		if len(f.Ack.Details) > 0 {
			code, reason = f.Ack.Details[0].Code, pa.ReasonText(f.Ack.Details[0].Code, f.Ack.Details[0].Message)
		}
		var dep struct {
			ID   string `db:"document_id"`
			Flow string `db:"flow_id"`
		}
		err := store.Get(ctx, env.DB, &dep, `SELECT document_id, COALESCE(flow_id, '') AS flow_id FROM pa_deposits
			WHERE document_id = ? AND producer_id = ?`, f.TrackingID, conn.ProducerID)
		if store.IsNotFound(err) {
			return 0, nil
		}
		if err != nil {
			return 0, fmt.Errorf("jobs: pa: %w", err)
		}
		if dep.Flow != "" && dep.Flow != f.FlowID {
			// A second flow of a document deposited as another (a process
			// frozen past its lease between in_flight_at and its POST): its
			// refusal (AlreadyExistingFlow, say) is not the document's.
			env.Log.Warn("jobs: pa: a second flow of a deposited document, refused by the PA; the document keeps its first",
				"document", dep.ID, "flow", dep.Flow, "second", f.FlowID, "reason", code)
			return 0, nil
		}
		return env.recordStatus(ctx, dep.ID, "ack-"+f.FlowID, pa.StatusIrrecevable, code, reason, at)
	case f.FlowDirection == pa.DirectionIn && f.FlowType == pa.TypeCustomerInvoiceLC:
		raw, err := client.Original(ctx, f.FlowID)
		if err != nil {
			return 0, err
		}
		l, err := pa.ParseLifecycle(raw)
		if err != nil {
			env.Log.Warn("jobs: pa: a lifecycle message not understood, skipped", "producer", conn.ProducerID, "flow", f.FlowID, "err", err)
			return 0, nil
		}
		if l.Seller != "" && siren != "" && l.Seller != siren {
			return 0, nil // another issuer's invoice
		}
		var id string
		err = store.Get(ctx, env.DB, &id, `SELECT d.id FROM documents d JOIN pa_deposits p ON p.document_id = d.id
			WHERE d.producer_id = ? AND d.number = ?`, conn.ProducerID, l.Number)
		if store.IsNotFound(err) {
			env.Log.Debug("jobs: pa: a status of an invoice not deposited by Primeur", "number", l.Number, "flow", f.FlowID)
			return 0, nil
		}
		if err != nil {
			return 0, fmt.Errorf("jobs: pa: %w", err)
		}
		reason := l.Reason
		if reason == "" && l.ReasonCode != "" {
			reason = pa.ReasonText(l.ReasonCode, "")
		}
		if !l.At.IsZero() {
			at = l.At
		}
		return env.recordStatus(ctx, id, f.FlowID, l.Status, l.ReasonCode, reason, at)
	}
	return 0, nil
}

// recordStatus adds a status to a document's history, once per source,
// and makes it the document's status unless a later one is known.
func (e Env) recordStatus(ctx context.Context, id, source, status, code, reason string, at time.Time) (int, error) {
	var n int64
	err := e.DB.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		n, err = store.Exec(ctx, tx, `INSERT INTO pa_statuses (document_id, source, status, reason_code, reason, at, recorded_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, id, source, status, code, reason, at.UnixMilli(), e.wallClock().UnixMilli())
		if err != nil || n == 0 {
			return err
		}
		_, err = store.Exec(ctx, tx, `UPDATE pa_deposits SET status = ?, status_at = ?
			WHERE document_id = ? AND (status IN ('', 'submitted') OR status_at IS NULL OR status_at <= ?)`, status, at.UnixMilli(), id, at.UnixMilli())
		if err != nil {
			return err
		}
		return e.tellStatus(ctx, tx, id, status, reason, at)
	})
	if err != nil {
		return 0, fmt.Errorf("jobs: pa: record status %s of %s: %w", status, id, err)
	}
	if n > 0 && (status == pa.StatusRejected || status == pa.StatusRefused || status == pa.StatusIrrecevable) {
		e.Log.Info("jobs: pa: document "+pa.StatusLabel(status), "document", id, "reason", code, "text", reason)
	}
	return int(n), nil
}

// toldStatuses are the statuses the activity feed and the notifications
// tell (notify.InvoiceStatus says to whom).
var toldStatuses = []string{pa.StatusDeposited, pa.StatusRefused, pa.StatusCashed, pa.StatusRejected, pa.StatusIrrecevable}

// tellStatus records a document's new status in both parties' activity
// feed (invoice:status) and queues their notifications, in the
// transaction that records it.
func (e Env) tellStatus(ctx context.Context, tx *sqlx.Tx, id, status, reason string, at time.Time) error {
	if !slices.Contains(toldStatuses, status) {
		return nil
	}
	var doc struct {
		Number     string `db:"number"`
		ProducerID string `db:"producer_id"`
		ShopID     string `db:"distributor_id"`
		Producer   string `db:"producer"`
		Shop       string `db:"shop"`
	}
	if err := store.Get(ctx, tx, &doc, `SELECT d.number, d.producer_id, d.distributor_id, p.name AS producer, s.name AS shop
		FROM documents d JOIN users p ON p.id = d.producer_id JOIN users s ON s.id = d.distributor_id WHERE d.id = ?`, id); err != nil {
		return fmt.Errorf("jobs: pa: the document %s: %w", id, err)
	}
	if err := activity.Record(ctx, tx, activity.Event{ID: core.NewID(), CreatedAt: e.wallClock(), Type: activity.InvoiceStatus,
		OriginID: doc.ProducerID, TargetID: doc.ShopID, Data: activity.Data{Number: doc.Number, Status: status, Reason: reason}}); err != nil {
		return err
	}
	return notify.InvoiceStatus(ctx, tx, doc.ProducerID, doc.Producer, doc.ShopID, doc.Shop, doc.Number, status, reason, e.wallClock())
}

// paRehearse is the dry run: the documents each connection would deposit,
// nothing called, nothing written.
func paRehearse(ctx context.Context, env Env, conns []pa.Connection, r *Report) error {
	n := 0
	for _, conn := range conns {
		var ids []string
		if err := store.Select(ctx, env.DB, &ids, paPending, conn.ProducerID, MaxDeposits, env.wallClock().UnixMilli()); err != nil {
			return fmt.Errorf("jobs: pa: pending: %w", err)
		}
		for _, id := range ids {
			doc, err := billing.Document(ctx, env.DB, id)
			if err != nil {
				return err
			}
			var one Report
			one.issued(doc)
			line := one.Issued[0] + " → " + conn.FlowURL
			if conn.SecretErr != nil {
				line += " (secret illisible : la clé manque)"
			}
			r.Deposits = append(r.Deposits, line)
			n++
		}
	}
	r.add(PADeposited, n)
	r.add(PAStatuses, 0) // no PA is called: none read
	return nil
}
