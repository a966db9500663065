// Package core holds what every domain package shares: the sentinel errors
// that the daemon maps to HTTP statuses in one place, and the validation error
// that carries the French messages users read.
package core

import (
	"errors"
	"strings"

	"github.com/google/uuid"
)

// Sentinel errors. Domain packages wrap them with %w; the daemon maps each to
// one HTTP status (daemon/errors.go) and the CLI prints the wrapped message.
var (
	// ErrNotFound: the object does not exist, or belongs to someone else.
	ErrNotFound = errors.New("not found")
	// ErrForbidden: the caller's role may not perform the operation.
	ErrForbidden = errors.New("forbidden")
	// ErrConflict: the operation contradicts the current state of the object.
	ErrConflict = errors.New("conflict")
	// ErrUnauthenticated: no valid session or wrong credentials.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrThrottled: too many attempts; the caller must wait.
	ErrThrottled = errors.New("throttled")
	// ErrTooLarge: the input exceeds a size limit.
	ErrTooLarge = errors.New("too large")
	// ErrBusy: the server is momentarily saturated (expensive work queued
	// past its wait, a database still locked after retries); the caller
	// may try again shortly.
	ErrBusy = errors.New("busy")
)

// FieldError is one invalid field with the message shown to the user.
type FieldError struct {
	Field   string
	Message string
	// Value, when set, is what the user may choose from (the sheets of a
	// workbook, for the import's sheet), sent as the error's value.
	Value any
}

// ValidationError lists the invalid fields of an input. Its messages are the
// French texts of PRODUCT §5; the first one doubles as the error's summary.
type ValidationError struct {
	Fields []FieldError
}

// Error returns the messages joined, so a CLI can print it as is.
func (e *ValidationError) Error() string {
	msgs := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		msgs[i] = f.Message
	}
	return strings.Join(msgs, " ")
}

// Add records an invalid field.
func (e *ValidationError) Add(field, message string) {
	e.Fields = append(e.Fields, FieldError{Field: field, Message: message})
}

// Err returns e when at least one field is invalid, nil otherwise.
func (e *ValidationError) Err() error {
	if len(e.Fields) == 0 {
		return nil
	}
	return e
}

// Invalid builds a validation error on a single field.
func Invalid(field, message string) error {
	return &ValidationError{Fields: []FieldError{{Field: field, Message: message}}}
}

// Refusal is a business-rule refusal with a message for the user, such as
// the PRODUCT §5 text for a need quantity under its commitments. Kind is the
// sentinel that decides the HTTP status (ErrConflict, ErrForbidden, …).
type Refusal struct {
	Kind    error
	Message string
}

// Error returns the user message.
func (r *Refusal) Error() string { return r.Message }

// Unwrap exposes the sentinel to errors.Is.
func (r *Refusal) Unwrap() error { return r.Kind }

// Refuse builds a Refusal.
func Refuse(kind error, message string) error {
	return &Refusal{Kind: kind, Message: message}
}

// NewID returns a new opaque, time-ordered identifier (UUIDv7).
func NewID() string {
	return uuid.Must(uuid.NewV7()).String()
}
