package main

import (
	"crypto/rand"
	"fmt"

	"go.uber.org/zap"

	"github.com/rulebook/rulebook/service/seal"
)

// loadKeys returns the keyring that seals and opens state tokens: the keys of RULEBOOK_STATE_KEYS, else of the state
// keys file, else the key kept in the data directory, made there on first start.
func loadKeys(cfg config, log *zap.Logger) (*seal.Keyring, error) {
	var keys []seal.Key
	var err error
	switch {
	case cfg.stateKeys != "":
		keys, err = seal.ParseKeys(cfg.stateKeys)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", stateKeysEnv, err)
		}
		log.Info("state keys from the environment", zap.String("sealingKey", keys[0].ID), zap.Int("keys", len(keys)))
	case cfg.stateKeysFile != "":
		if keys, err = seal.ReadKeyFile(cfg.stateKeysFile); err != nil {
			return nil, fmt.Errorf("state keys file: %w", err)
		}
		log.Info("state keys from a file", zap.String("file", cfg.stateKeysFile), zap.String("sealingKey", keys[0].ID),
			zap.Int("keys", len(keys)))
	default:
		var path string
		var created bool
		keys, path, created, err = seal.LoadOrCreateKeyFile(cfg.dataDir, rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("state key in the data directory: %w", err)
		}
		if created {
			log.Warn("made a new state key and kept it (owner-only) in the data directory; replicas that must open each "+
				"other's tokens need the same keys: set -state-keys-file", zap.String("file", path), zap.String("sealingKey", keys[0].ID))
		} else {
			log.Info("state key from the data directory", zap.String("file", path), zap.String("sealingKey", keys[0].ID))
		}
	}
	return seal.NewKeyring(keys...)
}
