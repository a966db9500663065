// Package sepa writes SEPA credit transfer files (ISO 20022
// pain.001.001.09, EPC132-08 implementation guidelines, 2023): the file a
// shop imports into its bank to pay its producers, one transfer per
// producer (PRODUCT §16 "Paying by bank transfer").
//
// What the EPC's schema wants, and what banks apply beyond it, is kept
// here: EUR amounts from 0.01 to 999 999 999.99 with two decimals, IBAN
// accounts with a valid checksum, BICs of 8 or 11 characters when given,
// names of 70 characters and remittance information of 140, every text in
// the SEPA basic Latin character set (letters without accents, digits,
// space and / - ? : ( ) . , ' +) — "Épicerie Lœuf" is written "Epicerie
// Loeuf". The tests validate every file they make against the EPC schema
// (testdata/sepa).
package sepa

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"primeur/core/accounts"
	"primeur/core/decimal"
)

// Namespace is pain.001.001.09's.
const Namespace = "urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"

// Limits of the EPC guidelines.
const (
	maxName       = 70
	maxRemittance = 140
	maxID         = 35
	maxAmount     = 99_999_999_999 // cents: 999 999 999,99 €
)

// Party is the debtor (the shop) or a creditor (a producer).
type Party struct {
	Name string
	IBAN string
	// BIC is optional (IBAN-only is the SEPA rule); "" leaves it out.
	BIC string
}

// Transfer is one payment to a creditor.
type Transfer struct {
	Creditor Party
	// Amount in euro cents.
	Amount decimal.Dec
	// EndToEnd identifies the transfer for both parties (35 characters).
	EndToEnd string
	// Remittance is the unstructured information the creditor reads:
	// the invoices paid (140 characters; cut beyond). Unstructured
	// (Ustrd) only: EPC132-08 keeps of the structured form (Strd) one
	// creditor reference of 35 characters, and a transaction carries one
	// form or the other.
	Remittance string
}

// File is a credit transfer initiation: one debtor, one execution date,
// the transfers.
type File struct {
	// MsgID identifies the file (35 characters).
	MsgID   string
	Created time.Time
	// Execution is the requested execution date, "YYYY-MM-DD".
	Execution string
	Debtor    Party
	Transfers []Transfer
}

// Errors of a file that cannot be made; ErrCreditor names the party.
var (
	ErrDebtor   = errors.New("sepa: the debtor's IBAN or BIC is not valid")
	ErrCreditor = errors.New("sepa: a creditor's IBAN or BIC is not valid")
	ErrAmount   = errors.New("sepa: an amount is out of the SEPA range")
	ErrEmpty    = errors.New("sepa: no transfer")
)

// CreditorError is ErrCreditor for a named creditor.
type CreditorError struct{ Name string }

func (e CreditorError) Error() string { return ErrCreditor.Error() + ": " + e.Name }
func (e CreditorError) Unwrap() error { return ErrCreditor }

// account normalises an IBAN or BIC: no spaces, upper case.
func account(s string) string {
	return strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
}

func validParty(p Party) bool {
	bic := account(p.BIC)
	return accounts.ValidIBAN(account(p.IBAN)) && (bic == "" || len(bic) == 8 && accounts.ValidBIC(bic+"XXX") || accounts.ValidBIC(bic))
}

// Latin writes a text in the SEPA basic Latin character set, cut to max
// characters: accents dropped (é → e), ligatures spelt out (œ → oe), any
// other character a space, spaces collapsed.
func Latin(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == 'œ' || r == 'Œ':
			b.WriteString(map[rune]string{'œ': "oe", 'Œ': "OE"}[r])
		case r == 'æ' || r == 'Æ':
			b.WriteString(map[rune]string{'æ': "ae", 'Æ': "AE"}[r])
		case r == 'ß':
			b.WriteString("ss")
		case r == '’' || r == '‘':
			b.WriteByte('\'')
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("/-?:().,'+", r)):
			b.WriteRune(r)
		default:
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
	}
	out := strings.TrimSpace(b.String())
	if len(out) > max {
		out = strings.TrimSpace(out[:max])
	}
	return out
}

// XML writes the file, or refuses one that its debtor's or a creditor's
// account, or an amount, makes invalid.
func (f File) XML() ([]byte, error) {
	if len(f.Transfers) == 0 {
		return nil, ErrEmpty
	}
	if !validParty(f.Debtor) {
		return nil, ErrDebtor
	}
	var total decimal.Dec
	for _, t := range f.Transfers {
		if !validParty(t.Creditor) {
			return nil, CreditorError{t.Creditor.Name}
		}
		if t.Amount <= 0 || t.Amount > maxAmount {
			return nil, ErrAmount
		}
		total += t.Amount
	}
	var d document
	d.Xmlns = Namespace
	g := &d.Init.Header
	g.MsgID = Latin(f.MsgID, maxID)
	g.Created = f.Created.UTC().Format("2006-01-02T15:04:05")
	g.Count = len(f.Transfers)
	g.Sum = amount(total)
	g.Initiator.Name = Latin(f.Debtor.Name, maxName)
	p := &d.Init.Payment
	p.ID = Latin(f.MsgID, maxID)
	p.Method = "TRF"
	p.Count, p.Sum = g.Count, g.Sum
	p.Type.Service.Code = "SEPA"
	p.Execution.Date = f.Execution
	p.Debtor.Name = g.Initiator.Name
	p.DebtorAccount.ID.IBAN = account(f.Debtor.IBAN)
	p.DebtorAgent = agent(f.Debtor.BIC)
	p.Charges = "SLEV"
	for _, t := range f.Transfers {
		var x transaction
		x.ID.EndToEnd = Latin(t.EndToEnd, maxID)
		if x.ID.EndToEnd == "" {
			x.ID.EndToEnd = "NOTPROVIDED"
		}
		x.Amount.Value = amount(t.Amount)
		x.Amount.Currency = "EUR"
		if t.Creditor.BIC != "" {
			a := agent(t.Creditor.BIC)
			x.CreditorAgent = &a
		}
		x.Creditor.Name = Latin(t.Creditor.Name, maxName)
		x.CreditorAccount.ID.IBAN = account(t.Creditor.IBAN)
		if r := Latin(t.Remittance, maxRemittance); r != "" {
			x.Remittance = &struct {
				Unstructured string `xml:"Ustrd"`
			}{r}
		}
		p.Transactions = append(p.Transactions, x)
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("sepa: encode: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

func amount(c decimal.Dec) string { return fmt.Sprintf("%d.%02d", int64(c)/100, int64(c)%100) }

// agent is a bank by its BIC, or "NOTPROVIDED" (IBAN-only).
func agent(bic string) financialAgent {
	var a financialAgent
	if bic = account(bic); bic != "" {
		a.Institution.BIC = bic
	} else {
		a.Institution.Other = &struct {
			ID string `xml:"Id"`
		}{"NOTPROVIDED"}
	}
	return a
}

type document struct {
	XMLName xml.Name `xml:"Document"`
	Xmlns   string   `xml:"xmlns,attr"`
	Init    struct {
		Header struct {
			MsgID     string `xml:"MsgId"`
			Created   string `xml:"CreDtTm"`
			Count     int    `xml:"NbOfTxs"`
			Sum       string `xml:"CtrlSum"`
			Initiator struct {
				Name string `xml:"Nm"`
			} `xml:"InitgPty"`
		} `xml:"GrpHdr"`
		Payment paymentInfo `xml:"PmtInf"`
	} `xml:"CstmrCdtTrfInitn"`
}

type paymentInfo struct {
	ID     string `xml:"PmtInfId"`
	Method string `xml:"PmtMtd"`
	Count  int    `xml:"NbOfTxs"`
	Sum    string `xml:"CtrlSum"`
	Type   struct {
		Service struct {
			Code string `xml:"Cd"`
		} `xml:"SvcLvl"`
	} `xml:"PmtTpInf"`
	Execution struct {
		Date string `xml:"Dt"`
	} `xml:"ReqdExctnDt"`
	Debtor struct {
		Name string `xml:"Nm"`
	} `xml:"Dbtr"`
	DebtorAccount ibanAccount    `xml:"DbtrAcct"`
	DebtorAgent   financialAgent `xml:"DbtrAgt"`
	Charges       string         `xml:"ChrgBr"`
	Transactions  []transaction  `xml:"CdtTrfTxInf"`
}

type ibanAccount struct {
	ID struct {
		IBAN string `xml:"IBAN"`
	} `xml:"Id"`
}

type financialAgent struct {
	Institution struct {
		BIC   string `xml:"BICFI,omitempty"`
		Other *struct {
			ID string `xml:"Id"`
		} `xml:"Othr"`
	} `xml:"FinInstnId"`
}

type transaction struct {
	ID struct {
		EndToEnd string `xml:"EndToEndId"`
	} `xml:"PmtId"`
	Amount struct {
		Value    string `xml:",chardata"`
		Currency string `xml:"Ccy,attr"`
	} `xml:"Amt>InstdAmt"`
	CreditorAgent *financialAgent `xml:"CdtrAgt"`
	Creditor      struct {
		Name string `xml:"Nm"`
	} `xml:"Cdtr"`
	CreditorAccount ibanAccount `xml:"CdtrAcct"`
	Remittance      *struct {
		Unstructured string `xml:"Ustrd"`
	} `xml:"RmtInf"`
}
