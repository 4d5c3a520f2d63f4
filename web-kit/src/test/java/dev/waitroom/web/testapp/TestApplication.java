package dev.waitroom.web.testapp;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A tiny service on the kit: a few routes that report what reached them. */
@SpringBootApplication
public class TestApplication {}
