package server

import (
	"context"
	"fmt"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// callLogger adapts a zap logger to the gRPC logging interceptor, which writes one line per call with its method,
// code and duration.
func callLogger(log *zap.Logger) logging.Logger {
	return logging.LoggerFunc(func(_ context.Context, lvl logging.Level, msg string, fields ...any) {
		zapFields := make([]zap.Field, 0, len(fields)/2)
		for i := 0; i+1 < len(fields); i += 2 {
			zapFields = append(zapFields, zap.Any(fmt.Sprint(fields[i]), fields[i+1]))
		}
		level := zapcore.InfoLevel
		switch lvl {
		case logging.LevelDebug:
			level = zapcore.DebugLevel
		case logging.LevelWarn:
			level = zapcore.WarnLevel
		case logging.LevelError:
			level = zapcore.ErrorLevel
		}
		log.Log(level, msg, zapFields...)
	})
}
