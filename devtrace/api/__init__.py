"""devtrace.api"""
