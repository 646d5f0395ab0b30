// The wire protocol: frames and messages.
