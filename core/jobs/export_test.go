package jobs

// SelfProcess is this process as mail_senders names it (journal.go): its
// place ("" where unknown), PID and start time.
func SelfProcess() (place string, pid int, start int64) {
	p := self()
	return p.place, p.pid, p.start
}
