package pa

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"time"
)

// The lifecycle statuses of an invoice (XP Z12-012's "cycle de vie"), as
// the CDAR message's ProcessConditionCode carries them, and Primeur's own
// for a flow found irrecevable (its acknowledgement Error, XP Z12-013
// §5.5.1: no CDAR is made).
const (
	StatusDeposited    = "200" // Déposée
	StatusIssued       = "201" // Émise par la plateforme
	StatusReceived     = "202" // Reçue par la plateforme
	StatusAvailable    = "203" // Mise à disposition
	StatusTakenOver    = "204" // Prise en charge
	StatusApproved     = "205" // Approuvée
	StatusPartApproved = "206" // Approuvée partiellement
	StatusDisputed     = "207" // En litige
	StatusSuspended    = "208" // Suspendue
	StatusCompleted    = "209" // Complétée
	StatusRefused      = "210" // Refusée
	StatusPaymentSent  = "211" // Paiement transmis
	StatusCashed       = "212" // Encaissée
	StatusRejected     = "213" // Rejetée
	StatusCancelled    = "220" // Annulée
	StatusIrrecevable  = "irrecevable"
	// StatusSubmitted is a document deposited whose first status has not
	// come back yet.
	StatusSubmitted = "submitted"
)

var statusLabels = map[string]string{
	StatusSubmitted:    "Transmise",
	StatusDeposited:    "Déposée",
	StatusIssued:       "Émise",
	StatusReceived:     "Reçue",
	StatusAvailable:    "Mise à disposition",
	StatusTakenOver:    "Prise en charge",
	StatusApproved:     "Approuvée",
	StatusPartApproved: "Approuvée partiellement",
	StatusDisputed:     "En litige",
	StatusSuspended:    "Suspendue",
	StatusCompleted:    "Complétée",
	StatusRefused:      "Refusée",
	StatusPaymentSent:  "Paiement transmis",
	StatusCashed:       "Encaissée",
	StatusRejected:     "Rejetée",
	StatusCancelled:    "Annulée",
	StatusIrrecevable:  "Irrecevable",
}

// StatusLabel is a status in French ("Déposée"), or "statut <code>" for
// one Primeur does not know.
func StatusLabel(code string) string {
	if s, ok := statusLabels[code]; ok {
		return s
	}
	return "statut " + code
}

// Lifecycle is what Primeur reads of, and writes in, a lifecycle message
// (a CDAR CrossDomainAcknowledgementAndResponse, XP Z12-012): one status of
// one invoice.
type Lifecycle struct {
	// ID is the message's own id (MDT-4).
	ID string
	// At is when the status was set (MDT-78).
	At time.Time
	// Number is the invoice's number (BT-1, MDT-87), TypeCode its type
	// (BT-3: 380 invoice, 381 credit note, 384 corrective).
	Number, TypeCode string
	// IssueDate is the invoice's date (BT-2, MDT-100), YYYYMMDD.
	IssueDate string
	// Seller is the SIREN of the invoice's issuer (MDT-129).
	Seller string
	// Status is the status's code (MDT-105) and Label its text (MDT-106).
	Status, Label string
	// ReasonCode and Reason are the motive of a rejection or refusal
	// (MDT-113, MDT-114), Note a free text (MDT-126).
	ReasonCode, Reason, Note string
}

// The CDAR's shape, the parts Primeur reads and writes.
type cdar struct {
	XMLName  xml.Name `xml:"urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100 CrossDomainAcknowledgementAndResponse"`
	Context  cdarContext
	Document cdarDocument `xml:"ExchangedDocument"`
	Ack      cdarAck      `xml:"AcknowledgementDocument"`
}

type cdarContext struct {
	XMLName   xml.Name   `xml:"urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100 ExchangedDocumentContext"`
	Process   cdarIDOnly `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 BusinessProcessSpecifiedDocumentContextParameter"`
	Guideline cdarIDOnly `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 GuidelineSpecifiedDocumentContextParameter"`
}

type cdarIDOnly struct {
	ID string `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 ID"`
}

type cdarDocument struct {
	XMLName xml.Name     `xml:"urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100 ExchangedDocument"`
	ID      string       `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 ID"`
	Issued  cdarDateTime `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 IssueDateTime"`
}

type cdarDateTime struct {
	S cdarString `xml:"urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100 DateTimeString"`
}

type cdarQDateTime struct {
	S cdarString `xml:"urn:un:unece:uncefact:data:standard:QualifiedDataType:100 DateTimeString"`
}

type cdarString struct {
	Format string `xml:"format,attr"`
	Value  string `xml:",chardata"`
}

type cdarAck struct {
	XMLName  xml.Name     `xml:"urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100 AcknowledgementDocument"`
	TypeCode string       `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 TypeCode"`
	Issued   cdarDateTime `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 IssueDateTime"`
	Ref      cdarRef      `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 ReferenceReferencedDocument"`
}

type cdarRef struct {
	Number    string        `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 IssuerAssignedID"`
	TypeCode  string        `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 TypeCode,omitempty"`
	IssueDate cdarQDateTime `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 FormattedIssueDateTime"`
	Code      string        `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 ProcessConditionCode"`
	Label     string        `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 ProcessCondition,omitempty"`
	Issuer    cdarParty     `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 IssuerTradeParty"`
	Status    *cdarStatus   `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 SpecifiedDocumentStatus,omitempty"`
}

type cdarParty struct {
	GlobalID cdarScheme `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 GlobalID"`
}

type cdarScheme struct {
	Scheme string `xml:"schemeID,attr"`
	Value  string `xml:",chardata"`
}

type cdarStatus struct {
	ReasonCode string    `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 ReasonCode,omitempty"`
	Reason     string    `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 Reason,omitempty"`
	Note       *cdarNote `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 IncludedNote,omitempty"`
}

type cdarNote struct {
	Content string `xml:"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100 Content"`
}

const cdarTime = "20060102150405"

// ParseLifecycle reads a lifecycle message. It refuses one that names no
// invoice or no status.
func ParseLifecycle(b []byte) (Lifecycle, error) {
	var c cdar
	d := xml.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&c); err != nil {
		return Lifecycle{}, fmt.Errorf("pa: lifecycle message: %w", err)
	}
	r := c.Ack.Ref
	l := Lifecycle{ID: strings.TrimSpace(c.Document.ID), Number: strings.TrimSpace(r.Number), TypeCode: strings.TrimSpace(r.TypeCode),
		IssueDate: strings.TrimSpace(r.IssueDate.S.Value), Seller: strings.TrimSpace(r.Issuer.GlobalID.Value),
		Status: strings.TrimSpace(r.Code), Label: strings.TrimSpace(r.Label)}
	if r.Status != nil {
		l.ReasonCode, l.Reason = strings.TrimSpace(r.Status.ReasonCode), strings.TrimSpace(r.Status.Reason)
		if r.Status.Note != nil {
			l.Note = strings.TrimSpace(r.Status.Note.Content)
		}
	}
	if t, err := time.ParseInLocation(cdarTime, strings.TrimSpace(c.Ack.Issued.S.Value), time.UTC); err == nil {
		l.At = t
	}
	if l.Number == "" || l.Status == "" {
		return Lifecycle{}, fmt.Errorf("pa: lifecycle message %q: no invoice number or no status", l.ID)
	}
	return l, nil
}

// XML writes the lifecycle message as a CDAR (the parts above: enough for
// ParseLifecycle and for a test PA; not a complete XP Z12-012 message).
func (l Lifecycle) XML() ([]byte, error) {
	at := l.At.UTC().Format(cdarTime)
	c := cdar{
		Context:  cdarContext{Process: cdarIDOnly{"REGULATED"}, Guideline: cdarIDOnly{"urn.cpro.gouv.fr:1p0:CDV:invoice"}},
		Document: cdarDocument{ID: l.ID, Issued: cdarDateTime{cdarString{"204", at}}},
		Ack: cdarAck{TypeCode: "305", Issued: cdarDateTime{cdarString{"204", at}}, Ref: cdarRef{
			Number: l.Number, TypeCode: l.TypeCode, IssueDate: cdarQDateTime{cdarString{"102", l.IssueDate}},
			Code: l.Status, Label: l.Label, Issuer: cdarParty{cdarScheme{"0002", l.Seller}},
		}},
	}
	if l.ReasonCode != "" || l.Reason != "" || l.Note != "" {
		c.Ack.Ref.Status = &cdarStatus{ReasonCode: l.ReasonCode, Reason: l.Reason}
		if l.Note != "" {
			c.Ack.Ref.Status.Note = &cdarNote{l.Note}
		}
	}
	out, err := xml.MarshalIndent(c, "", " ")
	if err != nil {
		return nil, fmt.Errorf("pa: lifecycle message: %w", err)
	}
	return append([]byte(xml.Header), out...), nil
}
