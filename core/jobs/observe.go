package jobs

// Observer hears what the jobs do, for the daemon's metrics. Every field is
// optional; a nil field is skipped. The functions must be safe for
// concurrent use (documents are sent by several workers at once).
type Observer struct {
	// EmailSent is called once per email sent, with the document's kind
	// ("note" or "invoice").
	EmailSent func(kind string)
	// EmailFailed is called once per email that failed to be sent
	// (including one whose rendering panicked).
	EmailFailed func(kind string)
	// EmailDropped is called once per email dropped unsent because it had
	// nothing left to say: a digest whose account was closed, or whose
	// lines all went, since it was made.
	EmailDropped func(kind string)
	// PanicRecovered is called when a job's piece of work panicked and the
	// panic was recovered; where names the piece ("send note", …).
	PanicRecovered func(where string)
	// Deposited is called once per document deposited on a PA (the pa
	// job), DepositFailed once per failed attempt, DepositLeft once per
	// document left for an administrator after MaxDeposits attempts.
	Deposited, DepositFailed, DepositLeft func()
}

func (o Observer) deposited() {
	if o.Deposited != nil {
		o.Deposited()
	}
}

func (o Observer) depositFailed() {
	if o.DepositFailed != nil {
		o.DepositFailed()
	}
}

func (o Observer) depositLeft() {
	if o.DepositLeft != nil {
		o.DepositLeft()
	}
}

func (o Observer) emailSent(kind string) {
	if o.EmailSent != nil {
		o.EmailSent(kind)
	}
}

func (o Observer) emailFailed(kind string) {
	if o.EmailFailed != nil {
		o.EmailFailed(kind)
	}
}

func (o Observer) emailDropped(kind string) {
	if o.EmailDropped != nil {
		o.EmailDropped(kind)
	}
}

func (o Observer) panicRecovered(where string) {
	if o.PanicRecovered != nil {
		o.PanicRecovered(where)
	}
}
