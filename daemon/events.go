package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/activity"
)

// EventsInput pages through the feed.
type EventsInput struct {
	Before string `query:"before" doc:"Return events older than this event id (paging back)"`
	Limit  int    `query:"limit" minimum:"1" maximum:"200" doc:"Page size, 50 by default"`
}

// EventsOutput is a page of the feed, newest first.
type EventsOutput struct {
	Body []activity.View
}

func (d *Daemon) registerEvents(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "list-events",
		Method:      http.MethodGet,
		Path:        "/events",
		Summary:     "The activity feed",
		Description: "Events the user emitted or is the target of, newest first.",
		Tags:        []string{"Activity"},
		Errors:      []int{http.StatusUnauthorized},
	}, d.listEvents)
}

func (d *Daemon) listEvents(ctx context.Context, in *EventsInput) (*EventsOutput, error) {
	feed, err := activity.Feed(ctx, d.db, currentUser(ctx).ID, in.Before, in.Limit)
	if err != nil {
		return nil, err
	}
	return &EventsOutput{Body: feed}, nil
}
