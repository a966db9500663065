package pa

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/oauth2"
)

// Error is a call to the PA that failed: the operation ("token",
// "healthcheck", "deposit", "search", "get", "directory"), the HTTP status (0 when no
// answer came), the PA's errorCode and errorMessage (schema Error), or a
// reason code of the standard (Code) when the client refused before
// sending. Temporary says a later try may pass (no answer, 429, 5xx).
type Error struct {
	Op        string
	Status    int
	Code      string
	Message   string
	Temporary bool
	err       error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pa: %s", e.Op)
	if e.Status != 0 {
		fmt.Fprintf(&b, ": HTTP %d", e.Status)
	}
	if e.Code != "" {
		fmt.Fprintf(&b, ": %s", e.Code)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	if e.err != nil {
		fmt.Fprintf(&b, ": %v", e.err)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.err }

// Refused says the PA answered and refused the request itself (4xx other
// than 401, 408 and 429): the same request would be refused again, and no
// flow was made.
func (e *Error) Refused() bool {
	return e.Status >= 400 && e.Status < 500 && e.Status != http.StatusUnauthorized &&
		e.Status != http.StatusRequestTimeout && e.Status != http.StatusTooManyRequests
}

var (
	errBadURL         = errors.New("une adresse https complète est attendue")
	errPlainHTTP      = errors.New("http n'est permis que vers cette machine : https est attendu")
	errNoCredentials  = errors.New("l'identifiant et le secret du client sont requis")
	errAnswerTooLarge = errors.New("answer too large")
	errBadAnswer      = errors.New("answer not understood")
)

// tokenError is a failure to get a token from the token URL.
func tokenError(err error) error {
	e := &Error{Op: "token", err: err}
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.Response != nil {
			e.Status = re.Response.StatusCode
		}
		e.Code, e.Message = re.ErrorCode, re.ErrorDescription
		e.Temporary = e.Status >= 500 || e.Status == http.StatusTooManyRequests
	} else {
		e.Temporary = true
	}
	return e
}

// The reason codes of the standard (ReasonCodeEnum; XP Z12-013 §5.5,
// tables 4 and 5).
const (
	ReasonEmptyAttachment        = "EmptyAttachement"
	ReasonAttachmentTypeError    = "AttachmentTypeError"
	ReasonEmptyFlow              = "EmptyFlow"
	ReasonOtherTechnicalError    = "OtherTechnicalError"
	ReasonInvalidSchema          = "InvalidSchema"
	ReasonFileSizeExceeded       = "FileSizeExceeded"
	ReasonFlowTypeError          = "FlowTypeError"
	ReasonAlreadyExistingFlow    = "AlreadyExistingFlow"
	ReasonVirusFound             = "VirusFound"
	ReasonChecksumMismatch       = "ChecksumMismatch"
	ReasonInvoiceLCInvalidStatus = "InvoiceLCInvalidStatus"
	ReasonInvoiceLCStatusError   = "InvoiceLCStatusError"
	ReasonInvoiceLCRuleError     = "InvoiceLCRuleError"
	ReasonInvoiceLCAccessDenied  = "InvoiceLCAccessDenied"
	ReasonInvoiceLCAmountError   = "InvoiceLCAmountError"
)

// reasons are the French descriptions the standard gives its reason codes
// (tables 4 and 5), as a producer reads them.
var reasons = map[string]string{
	ReasonEmptyAttachment:        "une ou plusieurs pièces jointes sont vides",
	ReasonAttachmentTypeError:    "le type ou l'extension d'une pièce jointe n'est pas conforme",
	ReasonEmptyFlow:              "le fichier est vide",
	ReasonOtherTechnicalError:    "un autre problème technique est survenu",
	ReasonInvalidSchema:          "le fichier ne respecte pas le schéma XML de la facture",
	ReasonFileSizeExceeded:       "le fichier dépasse la taille permise",
	ReasonFlowTypeError:          "le type ou l'extension du fichier n'est pas conforme",
	ReasonAlreadyExistingFlow:    "ce fichier a déjà été déposé",
	ReasonVirusFound:             "le fichier ne respecte pas les conditions de sécurité (antivirus)",
	ReasonChecksumMismatch:       "l'empreinte du fichier ne correspond pas à son contenu",
	ReasonInvoiceLCInvalidStatus: "un ou plusieurs statuts sont incohérents",
	ReasonInvoiceLCStatusError:   "un ou plusieurs statuts sont incorrects ou non autorisés",
	ReasonInvoiceLCRuleError:     "une ou plusieurs règles de gestion ne sont pas respectées",
	ReasonInvoiceLCAccessDenied:  "la demande n'est pas autorisée",
	ReasonInvoiceLCAmountError:   "les montants encaissés ne correspondent pas à la TVA déclarée",
}

// ReasonText is a reason code in French: the standard's description for
// its codes, else the PA's own message, else the code itself.
func ReasonText(code, message string) string {
	if s, ok := reasons[code]; ok {
		return s
	}
	if m := strings.TrimSpace(message); m != "" {
		return m
	}
	if code != "" {
		return "motif " + code
	}
	return "motif non précisé"
}

var ops = map[string]string{
	"token":       "L'obtention du jeton d'accès auprès de la plateforme agréée",
	"healthcheck": "Le test de la plateforme agréée",
	"deposit":     "Le dépôt de la facture sur la plateforme agréée",
	"search":      "La recherche des statuts sur la plateforme agréée",
	"get":         "La lecture d'un flux sur la plateforme agréée",
	"directory":   "La consultation de l'annuaire de la plateforme agréée",
}

// French says in one French sentence what went wrong, for the producer.
func French(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if !errors.As(err, &e) {
		for _, known := range []error{errBadURL, errPlainHTTP, errNoCredentials} {
			if errors.Is(err, known) {
				return "La connexion à la plateforme agréée est incomplète : " + known.Error() + "."
			}
		}
		return "La plateforme agréée n'a pas pu être jointe : erreur inattendue, réessayez plus tard."
	}
	what, ok := ops[e.Op]
	if !ok {
		what = "L'échange avec la plateforme agréée"
	}
	var why string
	switch {
	case e.Op == "token" && (e.Status == http.StatusBadRequest || e.Status == http.StatusUnauthorized):
		why = "l'identifiant ou le secret du client est refusé"
	case e.Status == 0 && e.Code != "":
		why = ReasonText(e.Code, e.Message)
	case e.Status == 0:
		why = "la plateforme ne répond pas (adresse erronée, réseau ou délai dépassé)"
	case errors.Is(e, errAnswerTooLarge):
		why = "sa réponse dépasse la taille permise"
	case errors.Is(e, errBadAnswer):
		why = "sa réponse n'est pas comprise"
	case e.Status == http.StatusUnauthorized:
		why = "le jeton d'accès est refusé"
	case e.Status == http.StatusForbidden:
		why = "l'accès est refusé à ce client"
	case e.Status == http.StatusNotFound:
		why = "l'adresse n'existe pas sur la plateforme (vérifiez l'adresse du service de flux)"
	case e.Status == http.StatusRequestEntityTooLarge:
		why = reasons[ReasonFileSizeExceeded]
	case e.Status == http.StatusTooManyRequests:
		why = "trop de demandes, elle sera réessayée plus tard"
	case e.Status >= 500:
		why = "la plateforme est momentanément indisponible (erreur " + fmt.Sprint(e.Status) + "), elle sera réessayée plus tard"
	default:
		why = "la demande est refusée (erreur " + fmt.Sprint(e.Status)
		if e.Code != "" {
			why += ", code " + e.Code
		}
		why += ")"
		if r := ReasonText(e.Code, e.Message); e.Code != "" && r != "motif "+e.Code {
			why += " : " + r
		}
	}
	return what + " a échoué : " + why + "."
}
