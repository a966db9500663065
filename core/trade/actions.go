// Package trade is the negotiation between a producer and a shop on one
// need (PRODUCT §15, PRODUCT §4): proposals, counter-proposals, corrections,
// reviews and withdrawals, the commitments they produce, and the orders and
// deliveries that follow a commitment.
//
// Per need and producer there is at most one commitment (an accepted
// proposal) and at most one open proposal (proposed or rejected) whose
// `from` names the side that made it. What each side may do in each state is
// decided once, by Allowed; the API checks it and the UI mirrors it
// (ui/src/trade/actions.ts, tested against the same table,
// testdata/actions.json).
package trade

import (
	"slices"

	"primeur/core/planning"
)

// Side is one party of a negotiation: planning.FromProducer or
// planning.FromDistributor.
type Side = string

// Action is a verb of a proposal or commitment card (PRODUCT §4).
type Action string

// The card actions of PRODUCT §4.
const (
	Accepter  Action = "accepter"
	Modifier  Action = "modifier"
	Refuser   Action = "refuser"
	Supprimer Action = "supprimer"
	Corriger  Action = "corriger"
)

// State is where the negotiation between one producer and one need stands.
type State struct {
	// Committed is true when an accepted proposal (the commitment) exists.
	Committed bool `json:"committed"`
	// Open is the status of the open proposal: "" (none),
	// planning.StatusProposed or planning.StatusRejected.
	Open string `json:"open"`
	// From is the side that made the open proposal ("" without one).
	From Side `json:"from"`
}

// Actions are what a viewer may do in a state: make a first proposal, and
// the actions of the commitment card and of the open proposal's card.
type Actions struct {
	// Propose: a first proposal may be made (no card yet).
	Propose bool `json:"propose"`
	// Commitment lists the commitment card's actions.
	Commitment []Action `json:"commitment"`
	// Open lists the open proposal card's actions.
	Open []Action `json:"open"`
}

// Allowed is the one table of PRODUCT §4 permissions:
//
//   - nothing yet: the producer may propose; the shop has nothing to do;
//   - an open proposal (proposed or rejected): the side that made it may
//     modify or withdraw it; the other side may accept it, modify it (a
//     counter-proposal) or refuse it;
//   - a commitment: corriger, except while a correction is proposed (no
//     action on the commitment card) or after a correction was rejected
//     (PRODUCT §4 "Proposals and commitments", the row "commitment +
//     correction rejected"): the side that made the
//     rejected correction gets nothing on the commitment card (it keeps
//     modifier and supprimer on its refused correction) and the side that
//     rejected it gets only corriger — nothing on the card it refused, so
//     its refusal reads as done.
//
// A viewer that is neither side (another producer, another shop) is not
// asked: the operations refuse it before looking at the state.
func Allowed(s State, viewer Side) Actions {
	a := Actions{Commitment: []Action{}, Open: []Action{}}
	switch s.Open {
	case planning.StatusProposed, planning.StatusRejected:
		switch {
		case viewer == s.From:
			a.Open = []Action{Modifier, Supprimer}
		case s.Committed && s.Open == planning.StatusRejected:
			// The side that refused a correction: only corriger, below.
		default:
			a.Open = []Action{Accepter, Modifier, Refuser}
		}
	}
	switch {
	case s.Committed && s.Open == "":
		a.Commitment = []Action{Corriger}
	case s.Committed && s.Open == planning.StatusRejected && viewer != s.From:
		a.Commitment = []Action{Corriger}
	case !s.Committed && s.Open == "":
		a.Propose = viewer == planning.FromProducer
	}
	return a
}

// CanPropose reports whether the viewer may create or replace the open
// proposal: a first proposal, a modification, a counter-proposal or a
// correction.
func (a Actions) CanPropose() bool {
	return a.Propose || slices.Contains(a.Open, Modifier) || slices.Contains(a.Commitment, Corriger)
}

// CanReview reports whether the viewer may accept (accepted) or refuse the
// open proposal.
func (a Actions) CanReview(accepted bool) bool {
	if accepted {
		return slices.Contains(a.Open, Accepter)
	}
	return slices.Contains(a.Open, Refuser)
}

// CanWithdraw reports whether the viewer may delete the open proposal.
func (a Actions) CanWithdraw() bool { return slices.Contains(a.Open, Supprimer) }

// States lists every state a negotiation can be in, for tests and the
// shared table.
func States() []State {
	var out []State
	for _, committed := range []bool{false, true} {
		out = append(out, State{Committed: committed})
		for _, open := range []string{planning.StatusProposed, planning.StatusRejected} {
			for _, from := range []Side{planning.FromProducer, planning.FromDistributor} {
				out = append(out, State{Committed: committed, Open: open, From: from})
			}
		}
	}
	return out
}

// StateOf reads the state of producerID's negotiation from a need's
// proposals, with the commitment and the open proposal when they exist.
func StateOf(ps []planning.Proposal, producerID string) (s State, commitment, open *planning.Proposal) {
	for i := range ps {
		p := &ps[i]
		if p.Producer != producerID {
			continue
		}
		if p.Status == planning.StatusAccepted {
			s.Committed, commitment = true, p
		} else {
			s.Open, s.From, open = p.Status, p.From, p
		}
	}
	return s, commitment, open
}
