package main

func reportCommand(args []string) error { return nil }
