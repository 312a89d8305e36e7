//go:build !suggestmove

package main

import (
	"errors"
	"time"
)

// newBot returns the bot of -seat, which calls the server's SuggestMove. This build predates that RPC (it is built
// with the tag suggestmove once the service has it: bot.go), so it has no bot, and play -seat is refused.
func newBot(*env, string, time.Duration) (bot, error) {
	return nil, errors.New("play -seat needs the bot, the server's SuggestMove, which this build of rulebook lacks: play hot-seat")
}
