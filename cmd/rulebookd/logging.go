package main

import (
	"fmt"
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/rulebook/rulebook/internal/colour"
)

// newLogger builds the process logger: JSON lines for production, console lines for people (their levels in colour
// when standard error is a terminal and NO_COLOR is not set, see package colour); every line is written unless sampling, which keeps the first 100 lines of a kind each second and then one in 100.
func newLogger(format, level string, sampling bool) (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, fmt.Errorf("log level: %w", err)
	}
	cfg := zap.NewProductionConfig()
	if format == "console" {
		cfg = zap.NewDevelopmentConfig()
		cfg.EncoderConfig.EncodeLevel = zapcore.CapitalLevelEncoder
		if colour.For(os.Stderr) { // where the development configuration writes
			cfg.EncoderConfig.EncodeLevel = zapcore.CapitalColorLevelEncoder
		}
		cfg.Development = false // stack traces for errors only, and a DPanic never panics the server
	}
	cfg.Level = zap.NewAtomicLevelAt(lvl)
	cfg.Sampling = nil
	if sampling {
		cfg.Sampling = &zap.SamplingConfig{Initial: 100, Thereafter: 100}
	}
	return cfg.Build()
}
