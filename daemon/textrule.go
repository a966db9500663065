package daemon

import (
	"primeur/core/accounts"
	"primeur/daemon/httpx"
)

// French messages of the request checks made before any handler
// (httpx/textcheck.go).
const (
	MsgBadPath      = httpx.MsgBadPath
	MsgBadQuery     = httpx.MsgBadQuery
	MsgNotUTF8      = httpx.MsgNotUTF8
	MsgJSONRequired = httpx.MsgJSONRequired
)

// textCheck is the text rule of every JSON body (httpx.TextCheck) with
// the API's fields: claimComment, receptionComment and a shop's delivery
// instructions and opening hours are the multi-line free texts, and the
// email fields read PRODUCT §5's message of an invalid email.
var textCheck = httpx.TextCheck{
	Multiline: map[string]bool{"claimComment": true, "receptionComment": true, "deliveryInstructions": true, "openingHours": true},
	Messages: map[string]string{
		"email":           accounts.MsgEmailInvalid,
		"email2":          accounts.MsgEmailInvalid,
		"emailAccounting": accounts.MsgAccountingEmailGone,
	},
}
