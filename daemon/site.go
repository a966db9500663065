package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
)

// SiteView is what any visitor may know of the platform from its
// operator's settings.
type SiteView struct {
	AccessibilityContact       string `json:"accessibilityContact" doc:"The email address (bare, without a name) where a visitor reports an accessibility problem, given by the accessibility statement (RGAA \"Retour d'information et contact\"): the accessibility.contact setting, else the address of smtp.from unless it is a no-reply one; empty when neither gives one" example:"accessibilite@primeur.example"`
	AccessibilityContactSource string `json:"accessibilityContactSource" enum:"setting,mail-sender,none" doc:"Where accessibilityContact comes from: setting, the accessibility.contact setting; mail-sender, the address the platform's emails are sent from (accessibility.contact is not set); none, no address (accessibilityContact is empty)"`
}

// SiteOutput answers GET /public/site.
type SiteOutput struct {
	Body SiteView
}

func (d *Daemon) registerSite(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-site", Method: http.MethodGet, Path: "/public/site",
		Tags: []string{"Site"}, Summary: "What every visitor may know of the platform",
		Description: "For every visitor, without a session: the operator's contact for accessibility, which the " +
			"accessibility statement (/accessibilite) shows with a mailto link. It changes only with the daemon's " +
			"settings.",
		Security: publicSecurity,
		// A query the daemon refuses (a control character…) is answered 400 before the operation.
		Errors: []int{http.StatusBadRequest},
	}, d.getSite)
}

func (d *Daemon) getSite(_ context.Context, _ *struct{}) (*SiteOutput, error) {
	address, source := d.cfg.AccessibilityContact()
	out := &SiteOutput{}
	out.Body = SiteView{AccessibilityContact: address, AccessibilityContactSource: string(source)}
	return out, nil
}
